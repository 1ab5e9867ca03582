// Class 2: %warpid / %smid special registers (no portable HIP builtin with this meaning).
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned int hw_warp_id() {
  unsigned int w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  return w;
}

__device__ __forceinline__ unsigned int sm_id() {
  unsigned int s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__global__ void where_am_i(unsigned int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * t] = hw_warp_id();
  out[2 * t + 1] = sm_id();
}

int main() {
  unsigned int* d;
  cudaMalloc(&d, 2 * 4 * 128 * sizeof(unsigned int));
  where_am_i<<<4, 128>>>(d);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(d);
  return 0;
}
