#include <cuda_runtime.h>

__global__ void refine_cell(float* grid, int cell, int fine) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < fine) grid[cell * fine + i] *= 0.5f;
}

// adaptive refinement: cells above the threshold get a child grid
__global__ void coarse_pass(float* grid, const float* err, int cells, int fine, float tol) {
  int cell = blockIdx.x * blockDim.x + threadIdx.x;
  if (cell >= cells) return;
  if (err[cell] > tol) {
    refine_cell<<<(fine + 127) / 128, 128>>>(grid, cell, fine);
  }
}
