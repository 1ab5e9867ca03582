#include <cuda_runtime.h>
#include <cstdio>

__global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int run_saxpy(float a, const float* x, float* y, int n) {
  saxpy<<<(n + 255) / 256, 256>>>(a, x, y, n);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    std::fprintf(stderr, "saxpy failed: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
