#include <cuda_runtime.h>
void run_explicit(int n) {
  float *d, *h;
  cudaMalloc(&d, n * sizeof(float));
  cudaMallocHost(&h, n * sizeof(float));
  cudaFree(d);
  cudaFreeHost(h);
}
