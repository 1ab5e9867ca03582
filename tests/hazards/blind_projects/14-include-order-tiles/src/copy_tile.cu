#include <cuda_runtime.h>
#include "../include/tile_defaults.h"

// Tiled copy through shared memory (bandwidth baseline for the transpose).
__global__ void copy_smem(const float* __restrict__ in, float* __restrict__ out,
                          int rows, int cols) {
  __shared__ float buf[SMEM_TILE][SMEM_TILE + 1];
  const int x = blockIdx.x * SMEM_TILE + threadIdx.x;
  const int y = blockIdx.y * SMEM_TILE + threadIdx.y;
  for (int j = 0; j < SMEM_TILE; j += BLOCK_ROWS)
    if (x < cols && y + j < rows)
      buf[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
  __syncthreads();
  for (int j = 0; j < SMEM_TILE; j += BLOCK_ROWS)
    if (x < cols && y + j < rows)
      out[(size_t)(y + j) * cols + x] = buf[threadIdx.y + j][threadIdx.x];
}

void copy_tiles(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  dim3 grid((cols + SMEM_TILE - 1) / SMEM_TILE, (rows + SMEM_TILE - 1) / SMEM_TILE);
  copy_smem<<<grid, dim3(SMEM_TILE, BLOCK_ROWS), 0, s>>>(in, out, rows, cols);
}
