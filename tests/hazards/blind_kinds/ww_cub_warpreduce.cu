#include <cub/cub.cuh>

constexpr int kBlock = 128;
constexpr int kWarpLanes = 32;

// one partial sum per warp, written by the warp's first lane
__global__ void warp_partials(const float* x, float* partials) {
  using WarpReduce = cub::WarpReduce<float>;
  __shared__ typename WarpReduce::TempStorage tmp[kBlock / kWarpLanes];
  int warp_id = threadIdx.x / kWarpLanes;
  float v = x[blockIdx.x * kBlock + threadIdx.x];
  float s = WarpReduce(tmp[warp_id]).Sum(v);
  if ((threadIdx.x & (warpSize - 1)) == 0)
    partials[blockIdx.x * (kBlock / warpSize) + threadIdx.x / warpSize] = s;
}
