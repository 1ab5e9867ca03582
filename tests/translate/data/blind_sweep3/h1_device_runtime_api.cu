// Class 1: cuda_device_runtime_api.h included, nothing from it used.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_device_runtime_api.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 12;
  float *x = nullptr, *y = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  cudaError_t err = cudaDeviceSynchronize();
  printf("saxpy: %s\n", cudaGetErrorString(err));
  cudaFree(x);
  cudaFree(y);
  return err == cudaSuccess ? 0 : 1;
}
