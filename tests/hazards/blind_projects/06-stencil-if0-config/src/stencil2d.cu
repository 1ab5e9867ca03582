// Star stencil of radius RADIUS on a 2-D grid.
#include <cuda_runtime.h>
#include "../include/stencil_cfg.h"

__constant__ float c_coef[RADIUS + 1];

__global__ void stencil2d(const float* __restrict__ in, float* __restrict__ out,
                          int nx, int ny) {
  __shared__ float smem[BY + 2 * RADIUS][BX + 2 * RADIUS];
  const int gx = blockIdx.x * BX + threadIdx.x;
  const int gy = blockIdx.y * BY + threadIdx.y;
  for (int ly = threadIdx.y; ly < BY + 2 * RADIUS; ly += BY)
    for (int lx = threadIdx.x; lx < BX + 2 * RADIUS; lx += BX) {
      const int sx = min(max((int)(blockIdx.x * BX) + lx - RADIUS, 0), nx - 1);
      const int sy = min(max((int)(blockIdx.y * BY) + ly - RADIUS, 0), ny - 1);
      smem[ly][lx] = in[(size_t)sy * nx + sx];
    }
  __syncthreads();
  if (gx >= nx || gy >= ny) return;
  const int lx = threadIdx.x + RADIUS, ly = threadIdx.y + RADIUS;
  float v = c_coef[0] * smem[ly][lx];
  for (int r = 1; r <= RADIUS; ++r)
    v += c_coef[r] * (smem[ly][lx - r] + smem[ly][lx + r] +
                      smem[ly - r][lx] + smem[ly + r][lx]);
  out[(size_t)gy * nx + gx] = v;
}

void run_stencil(const float* in, float* out, int nx, int ny, cudaStream_t s) {
  dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY);
  stencil2d<<<grid, dim3(BX, BY), 0, s>>>(in, out, nx, ny);
}
