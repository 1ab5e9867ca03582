#include <cuda_runtime.h>
#include "launch_cfg.h"

__device__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync(__activemask(), v, o);
  return v;
}

// ROWS_PER_BLOCK warps per block, one row per warp
__global__ void row_mean(const float* x, float* mean, int rows, int cols) {
  int wid = threadIdx.x / LANES_PER_WARP;
  int row = blockIdx.x * ROWS_PER_BLOCK + wid;
  if (row >= rows) return;
  float s = 0.f;
  for (int c = threadIdx.x % warpSize; c < cols; c += warpSize) s += x[(size_t)row * cols + c];
  s = warp_sum(s);
  if (threadIdx.x % warpSize == 0) mean[row] = s / cols;
}
