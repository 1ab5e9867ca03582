namespace cfg {
constexpr int warp_size = 32;
constexpr int tile = 32;
}
int threads_for(int warps) { return warps * cfg::tile; }
