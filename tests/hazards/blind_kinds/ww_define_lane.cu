#include <cuda_runtime.h>

#define THREADS_PER_WARP 32

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v += __shfl_down_sync(__activemask(), v, o);
  return v;
}

// one warp per row: every lane strides over the columns
__global__ void row_sum(const float* __restrict__ x, float* __restrict__ y, int cols) {
  int lane = threadIdx.x % THREADS_PER_WARP;
  const float* row = x + (size_t)blockIdx.x * cols;
  float acc = 0.f;
  for (int c = lane; c < cols; c += warpSize) acc += row[c];
  acc = warp_sum(acc);
  if (lane == 0) y[blockIdx.x] = acc;
}
