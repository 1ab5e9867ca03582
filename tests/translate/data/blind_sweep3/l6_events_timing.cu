// Class 6: event timing plus a blocking-sync, timing-disabled event used for cross-stream ordering.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void busy(float* v, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = v[i];
  for (int k = 0; k < iters; ++k) a = a * 0.999f + 0.001f;
  v[i] = a;
}

int main() {
  const int n = 1 << 16;
  float* d; cudaMalloc(&d, n * sizeof(float));
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t start, stop, ready;
  cudaEventCreate(&start); cudaEventCreate(&stop);
  cudaEventCreateWithFlags(&ready, cudaEventBlockingSync | cudaEventDisableTiming);
  cudaEventRecord(start, s1);
  busy<<<(n + 255) / 256, 256, 0, s1>>>(d, n, 1000);
  cudaEventRecord(ready, s1);
  cudaStreamWaitEvent(s2, ready, 0);
  busy<<<(n + 255) / 256, 256, 0, s2>>>(d, n, 10);
  cudaEventRecord(stop, s2);
  cudaEventSynchronize(stop);
  float ms = 0.0f; cudaEventElapsedTime(&ms, start, stop);
  printf("elapsed %.3f ms, ready query %d\n", ms, (int)cudaEventQuery(ready));
  cudaEventDestroy(start); cudaEventDestroy(stop); cudaEventDestroy(ready);
  cudaStreamDestroy(s1); cudaStreamDestroy(s2); cudaFree(d);
  return 0;
}
