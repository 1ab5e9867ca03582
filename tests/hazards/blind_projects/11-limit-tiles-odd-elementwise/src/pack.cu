// Re-packs a row-major matrix into PACK_TILE x PACK_TILE column-major tiles.
#include <cuda_runtime.h>
#include "../include/dims.h"

__global__ void pack_tiles(const float* __restrict__ in, float* __restrict__ out, int ld) {
  __shared__ float tile[PACK_TILE][PACK_TILE];
  const float* src = in + (size_t)blockIdx.y * PACK_TILE * ld + blockIdx.x * PACK_TILE;
  for (int r = threadIdx.y; r < PACK_TILE; r += PACK_BY)
    for (int c = threadIdx.x; c < PACK_TILE; c += PACK_BX)
      tile[r][c] = src[(size_t)r * ld + c];
  __syncthreads();
  float* dst = out + ((size_t)blockIdx.y * gridDim.x + blockIdx.x) * PACK_TILE * PACK_TILE;
  for (int c = threadIdx.y; c < PACK_TILE; c += PACK_BY)
    for (int r = threadIdx.x; r < PACK_TILE; r += PACK_BX)
      dst[c * PACK_TILE + r] = tile[r][c];
}

void pack(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  dim3 grid(cols / PACK_TILE, rows / PACK_TILE);
  pack_tiles<<<grid, dim3(PACK_BX, PACK_BY), 0, s>>>(in, out, cols);
}
