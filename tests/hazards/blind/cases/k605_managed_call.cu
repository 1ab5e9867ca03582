#include <cuda_runtime.h>
__global__ void incr(float* p) { p[threadIdx.x] += 1.0f; }
void run_managed(int n) {
  float* p;
  cudaMallocManaged(&p, n * sizeof(float));
  incr<<<1, n>>>(p);
  cudaFree(p);
}
