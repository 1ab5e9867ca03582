#include <cuda_runtime.h>
__global__ void carve(float* p) { p[0] = 1.0f; }
void set_carveout() {
  cudaFuncSetAttribute(carve, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
}
