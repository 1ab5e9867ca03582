// CUDA's default arguments that HIP's declarations lack are written out.
#include <cuda_runtime.h>
__constant__ float table[16];
__global__ void k(float* p) { p[threadIdx.x] = table[threadIdx.x]; }
void run(cudaStream_t s, cudaEvent_t e, float* host, float* dev, void** args) {
  cudaStreamWaitEvent(s, e);
  cudaStreamWaitEvent(s, e, 0);
  cudaMemcpyToSymbolAsync(table, host, sizeof(float) * 16);
  cudaMemcpyToSymbolAsync(table, host, sizeof(float) * 8, sizeof(float) * 8);
  cudaMemcpyToSymbolAsync(table, host, 4, 0, cudaMemcpyHostToDevice, s);
  cudaMemcpyFromSymbolAsync(host, table, sizeof(float) * 16);
  cudaLaunchCooperativeKernel((void*)k, dim3(1), dim3(16), args);
  cudaLaunchCooperativeKernel((void*)k, dim3(1), dim3(16), args, 0, s);
  (void)dev;
}
