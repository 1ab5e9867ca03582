#define TILE_SIZE 32
constexpr int kBlockRows = 32;
