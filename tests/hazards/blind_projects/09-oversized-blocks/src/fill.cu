#include <cuda_runtime.h>
#include "../include/launch_params.h"

__global__ void __launch_bounds__(MAX_THREADS_PER_BLOCK) fill_kernel(float* p, float v, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    p[i] = v;
}

void fill(float* p, float v, size_t n, cudaStream_t s) {
  size_t blocks = (n + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK;
  if (blocks > GRID_CAP) blocks = GRID_CAP;
  fill_kernel<<<(unsigned)blocks, MAX_THREADS_PER_BLOCK, 0, s>>>(p, v, n);
}
