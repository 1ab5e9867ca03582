// Class 4: version gate that errors out on old runtimes: #if CUDART_VERSION >= 9000 ... #else #error
#include <cstdio>
#include <cuda_runtime.h>

#if CUDART_VERSION >= 9000
#define HAVE_MANAGED_PREFETCH 1
#else
#error "This code needs CUDA 9.0 or newer"
#endif

__global__ void fill(int* p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}

int main() {
  const int n = 1024;
  int* p = nullptr;
  cudaMallocManaged(&p, n * sizeof(int));
  fill<<<(n + 255) / 256, 256>>>(p, n, 3);
  cudaDeviceSynchronize();
  int rt = 0;
  cudaRuntimeGetVersion(&rt);
  printf("runtime %d prefetch %d first %d\n", rt, HAVE_MANAGED_PREFETCH, p[0]);
  cudaFree(p);
  return 0;
}
