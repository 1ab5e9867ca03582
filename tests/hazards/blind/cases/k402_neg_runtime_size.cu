#include <cuda_runtime.h>
__global__ void rt(float* p) { extern __shared__ float s[]; s[0] = p[0]; }
void run_rt(float* p, size_t bytes) {
  cudaFuncSetAttribute(rt, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
  rt<<<1, 256, bytes>>>(p);
}
