// Marks warps whose slice of the input is all zero so later passes skip them.
#include <cuda_runtime.h>
#include "../include/platform.h"

__global__ void row_filter(const float* __restrict__ x, float* __restrict__ y,
                           int* __restrict__ warp_live, int n) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & (WARP_SIZE - 1);
  const int warp = gid / WARP_SIZE;
  const float v = gid < n ? x[gid] : 0.0f;
  const bool live = __any_sync(VOTE_MASK, v != 0.0f);
  if (lane == 0) warp_live[warp] = live ? 1 : 0;
  if (live && gid < n) y[gid] = v * v;
}

void filter_rows(const float* x, float* y, int* warp_live, int n, cudaStream_t s) {
  const int blocks = (n + FILTER_THREADS - 1) / FILTER_THREADS;
  row_filter<<<blocks, FILTER_THREADS, 0, s>>>(x, y, warp_live, n);
}
