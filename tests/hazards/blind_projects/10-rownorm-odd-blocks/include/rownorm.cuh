#pragma once
#include <cuda_runtime.h>
#include "kernel_dims.h"

// y = x / ||x||_2, one block per row.
template <typename T>
__global__ void rownorm_kernel(const T* __restrict__ x, T* __restrict__ y, int cols) {
  __shared__ float partial[8];
  const T* xr = x + (size_t)blockIdx.x * cols;
  float ss = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = static_cast<float>(xr[c]);
    ss += v * v;
  }
  for (int o = warpSize / 2; o > 0; o >>= 1)
    ss += __shfl_xor_sync(SHFL_MASK, ss, o);
  if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = ss;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int w = 0; w < (int)((blockDim.x + warpSize - 1) / warpSize); ++w) total += partial[w];
    partial[0] = rsqrtf(total + 1e-12f);
  }
  __syncthreads();
  const float inv = partial[0];
  T* yr = y + (size_t)blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    yr[c] = static_cast<T>(static_cast<float>(xr[c]) * inv);
}
