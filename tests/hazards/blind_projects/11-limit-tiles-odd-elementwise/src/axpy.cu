#include <cuda_runtime.h>
#include "../include/dims.h"

__global__ void axpy_kernel(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void relu_kernel(int n, float* __restrict__ y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(y[i], 0.0f);
}

void axpy_relu(int n, float a, const float* x, float* y, cudaStream_t s) {
  const int blocks = (n + VEC_BLOCK - 1) / VEC_BLOCK;
  axpy_kernel<<<blocks, VEC_BLOCK, 0, s>>>(n, a, x, y);
  relu_kernel<<<blocks, VEC_BLOCK, 0, s>>>(n, y);
}
