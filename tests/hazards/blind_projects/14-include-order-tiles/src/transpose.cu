#include <cuda_runtime.h>
#include "../include/tiles_hopper.h"
#include "../include/tile_defaults.h"

__global__ void transpose_smem(const float* __restrict__ in, float* __restrict__ out,
                               int rows, int cols) {
  __shared__ float tile[SMEM_TILE][SMEM_TILE + 1];
  int x = blockIdx.x * SMEM_TILE + threadIdx.x;
  int y = blockIdx.y * SMEM_TILE + threadIdx.y;
  for (int j = 0; j < SMEM_TILE; j += BLOCK_ROWS)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * SMEM_TILE + threadIdx.x;
  y = blockIdx.x * SMEM_TILE + threadIdx.y;
  for (int j = 0; j < SMEM_TILE; j += BLOCK_ROWS)
    if (x < rows && y + j < cols)
      out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  dim3 grid((cols + SMEM_TILE - 1) / SMEM_TILE, (rows + SMEM_TILE - 1) / SMEM_TILE);
  transpose_smem<<<grid, dim3(SMEM_TILE, BLOCK_ROWS), 0, s>>>(in, out, rows, cols);
}
