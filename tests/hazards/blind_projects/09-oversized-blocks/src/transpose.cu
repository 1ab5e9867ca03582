#include <cuda_runtime.h>
#include "../include/launch_params.h"

// One thread per element of a TRANSPOSE_TILE x TRANSPOSE_TILE tile.
__global__ void transpose_tile(const float* __restrict__ in, float* __restrict__ out,
                               int rows, int cols) {
  __shared__ float tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];
  int x = blockIdx.x * TRANSPOSE_TILE + threadIdx.x;
  int y = blockIdx.y * TRANSPOSE_TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
  __syncthreads();
  x = blockIdx.y * TRANSPOSE_TILE + threadIdx.x;
  y = blockIdx.x * TRANSPOSE_TILE + threadIdx.y;
  if (x < rows && y < cols) out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  dim3 grid((cols + TRANSPOSE_TILE - 1) / TRANSPOSE_TILE,
            (rows + TRANSPOSE_TILE - 1) / TRANSPOSE_TILE);
  transpose_tile<<<grid, dim3(TRANSPOSE_TILE, TRANSPOSE_TILE), 0, s>>>(in, out, rows, cols);
}
