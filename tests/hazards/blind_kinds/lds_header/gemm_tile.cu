#include <cuda_runtime.h>
#include "tile_config.h"

// stages a TILE_M x TILE_K panel of A in shared memory (skewed to avoid bank conflicts)
__global__ void panel_gemv(const float* A, const float* x, float* y, int K) {
  __shared__ float panel[TILE_M][TILE_K + SKEW];
  int row0 = blockIdx.x * TILE_M;
  float acc = 0.f;
  for (int k0 = 0; k0 < K; k0 += TILE_K) {
    for (int i = threadIdx.x; i < TILE_M * TILE_K; i += blockDim.x)
      panel[i / TILE_K][i % TILE_K] = A[(size_t)(row0 + i / TILE_K) * K + k0 + i % TILE_K];
    __syncthreads();
    if (threadIdx.x < TILE_M)
      for (int k = 0; k < TILE_K; ++k) acc += panel[threadIdx.x][k] * x[k0 + k];
    __syncthreads();
  }
  if (threadIdx.x < TILE_M) y[row0 + threadIdx.x] = acc;
}
