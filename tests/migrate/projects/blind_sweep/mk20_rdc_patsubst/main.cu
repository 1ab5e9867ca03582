#include <cuda_runtime.h>
#include <cstdio>

extern __device__ float twice(float v);

__global__ void apply(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = twice(x[i]);
}

int main() {
  float* d = nullptr;
  cudaMalloc(&d, 128 * sizeof(float));
  apply<<<1, 128>>>(d, 128);
  cudaDeviceSynchronize();
  cudaFree(d);
  std::printf("ok\n");
  return 0;
}
