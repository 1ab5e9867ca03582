// Class 2: fire-and-forget reductions written as inline PTX (histogram style).
#include <cuda_runtime.h>

__device__ __forceinline__ void red_add_u32(unsigned int* addr, unsigned int v) {
  asm volatile("red.global.add.u32 [%0], %1;" :: "l"(addr), "r"(v) : "memory");
}

__device__ __forceinline__ void red_add_f32(float* addr, float v) {
  asm volatile("red.global.add.f32 [%0], %1;" :: "l"(addr), "f"(v) : "memory");
}

__global__ void histogram(const unsigned char* data, int n, unsigned int* bins, float* total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    red_add_u32(&bins[data[i]], 1u);
    red_add_f32(total, (float)data[i]);
  }
}

void launch_hist(const unsigned char* d, int n, unsigned int* bins, float* total) {
  cudaMemset(bins, 0, 256 * sizeof(unsigned int));
  cudaMemset(total, 0, sizeof(float));
  histogram<<<(n + 255) / 256, 256>>>(d, n, bins, total);
}
