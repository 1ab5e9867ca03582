#include <cuda_runtime.h>
__global__ void fits350(float* p) { extern __shared__ float s[]; s[0] = p[0]; }
void run350(float* p) {
  cudaFuncSetAttribute(fits350, cudaFuncAttributeMaxDynamicSharedMemorySize, 128 * 1024);
  fits350<<<1, 256, 128 * 1024>>>(p);
}
