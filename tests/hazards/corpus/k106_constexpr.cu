constexpr int kWarpSize = 32;
__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x / kWarpSize; }
