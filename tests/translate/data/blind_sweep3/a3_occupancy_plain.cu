// Class 3 (control): cudaOccupancyMaxPotentialBlockSize and MaxActiveBlocks, both in old ROCm.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void axpby(float a, const float* x, float b, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b * y[i];
}

int main() {
  int min_grid = 0, block = 0, active = 0;
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, axpby, 0, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, axpby, block, 0);
  printf("block %d, min grid %d, %d blocks/SM\n", block, min_grid, active);
  return 0;
}
