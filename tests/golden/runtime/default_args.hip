// CUDA's default arguments that HIP's declarations lack are written out.
#include <hip/hip_runtime.h>
__constant__ float table[16];
__global__ void k(float* p) { p[threadIdx.x] = table[threadIdx.x]; }
void run(hipStream_t s, hipEvent_t e, float* host, float* dev, void** args) {
  hipStreamWaitEvent(s, e, 0);
  hipStreamWaitEvent(s, e, 0);
  hipMemcpyToSymbolAsync(HIP_SYMBOL(table), host, sizeof(float) * 16, 0, hipMemcpyHostToDevice, 0);
  hipMemcpyToSymbolAsync(HIP_SYMBOL(table), host, sizeof(float) * 8, sizeof(float) * 8, hipMemcpyHostToDevice, 0);
  hipMemcpyToSymbolAsync(HIP_SYMBOL(table), host, 4, 0, hipMemcpyHostToDevice, s);
  hipMemcpyFromSymbolAsync(host, HIP_SYMBOL(table), sizeof(float) * 16, 0, hipMemcpyDeviceToHost, 0);
  hipLaunchCooperativeKernel((void*)k, dim3(1), dim3(16), args, 0, 0);
  hipLaunchCooperativeKernel((void*)k, dim3(1), dim3(16), args, 0, s);
  (void)dev;
}
