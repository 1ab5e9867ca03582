#pragma once
#include <cuda_runtime.h>
#include "ln_config.h"

__device__ __forceinline__ float block_sum(float v, float* red) {
  red[threadIdx.x] = v;
  __syncthreads();
  for (int s = LN_THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  const float r = red[0];
  __syncthreads();
  return r;
}

__global__ void layernorm_kernel(const float* __restrict__ x, const float* __restrict__ gamma,
                                 const float* __restrict__ beta, float* __restrict__ y,
                                 int cols, float eps) {
  extern __shared__ float row[];
  __shared__ float red[LN_THREADS];
  const float* xr = x + (size_t)blockIdx.x * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += LN_THREADS) { row[c] = xr[c]; s += row[c]; }
  const float mean = block_sum(s, red) / cols;
  float q = 0.0f;
  for (int c = threadIdx.x; c < cols; c += LN_THREADS) { const float d = row[c] - mean; q += d * d; }
  const float rstd = rsqrtf(block_sum(q, red) / cols + eps);
  float* yr = y + (size_t)blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += LN_THREADS)
    yr[c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
}
