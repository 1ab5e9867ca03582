#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  float* d = nullptr;
  cudaMalloc(&d, 256 * sizeof(float));
  scale<<<1, 256>>>(d, 2.0f, 256);
  cudaDeviceSynchronize();
  cudaFree(d);
  std::printf("ok\n");
  return 0;
}
