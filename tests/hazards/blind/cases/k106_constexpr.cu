constexpr int kWarpSize = 32;
static const unsigned int WARPSZ = 32;
__global__ void c(int* out) { out[0] = kWarpSize * WARPSZ; }
