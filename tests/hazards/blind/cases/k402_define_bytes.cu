#include <cuda_runtime.h>
#define SMEM_BYTES (160 * 1024)
__global__ void hopper_sized(float* p) { extern __shared__ float sm[]; sm[0] = p[0]; }
void cfg_hopper(float* p) {
  cudaFuncSetAttribute(hopper_sized, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
}
