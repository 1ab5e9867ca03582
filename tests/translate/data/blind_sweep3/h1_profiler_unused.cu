// Class 1: cuda_profiler_api.h included by a benchmark harness but never called.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>

__global__ void scale(float* v, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    v[i] *= s;
}

int main() {
  const int n = 4096;
  float* d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) return 1;
  cudaMemset(d, 0, n * sizeof(float));
  for (int rep = 0; rep < 3; ++rep)
    scale<<<16, 128>>>(d, 1.5f, n);
  cudaDeviceSynchronize();
  printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(d);
  return 0;
}
