#include <cuda_runtime.h>

__global__ void partial_sums(const float* x, float* sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&sums[blockIdx.x], x[i]);
}

__global__ void two_level_sum(const float* x, float* sums, float* total, int n, int nblocks) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    partial_sums<<<nblocks, 256>>>(x, sums, n);
    cudaDeviceSynchronize();
    float t = 0.f;
    for (int b = 0; b < nblocks; ++b) t += sums[b];
    *total = t;
  }
}
