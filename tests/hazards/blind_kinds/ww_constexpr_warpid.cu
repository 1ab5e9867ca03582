#include <cuda_runtime.h>

namespace {
constexpr int kLanes = 32;
}

__device__ float warp_reduce(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync(__activemask(), v, o);
  return v;
}

__global__ void block_sum(const float* x, float* out, int n) {
  extern __shared__ float partial[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  v = warp_reduce(v);
  int warp = threadIdx.x / kLanes;
  if ((threadIdx.x & (warpSize - 1)) == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.f;
    for (int w = 0; w < blockDim.x / warpSize; ++w) s += partial[w];
    atomicAdd(out, s);
  }
}
