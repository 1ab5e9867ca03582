#include <cuda_runtime.h>
__global__ void attn(float* p) { extern __shared__ float smem[]; smem[threadIdx.x] = p[threadIdx.x]; p[0] = smem[1]; }
void setup_attn(float* p) {
  cudaFuncSetAttribute(attn, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
  attn<<<1, 128, 100 * 1024>>>(p);
}
