// Class 4: compiler-version gate: #if __CUDACC_VER_MAJOR__ >= 11 picks the stream-ordered allocator.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void iota(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}

int run(cudaStream_t s, int n) {
  int* buf = nullptr;
#if __CUDACC_VER_MAJOR__ >= 11
  if (cudaMallocAsync((void**)&buf, n * sizeof(int), s) != cudaSuccess) return 1;
#else
  if (cudaMalloc((void**)&buf, n * sizeof(int)) != cudaSuccess) return 1;
#endif
  iota<<<(n + 127) / 128, 128, 0, s>>>(buf, n);
#if __CUDACC_VER_MAJOR__ >= 11
  cudaFreeAsync(buf, s);
#else
  cudaStreamSynchronize(s);
  cudaFree(buf);
#endif
  return 0;
}

int main() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int rc = run(s, 4096);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  printf("rc %d\n", rc);
  return rc;
}
