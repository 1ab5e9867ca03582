// 2-D convolution with a KSIZE x KSIZE filter in constant memory.
#include <cuda_runtime.h>
#include "../include/tile_config.h"

__constant__ float c_filter[KSIZE * KSIZE];

__global__ void conv2d_tiled(const float* __restrict__ img, float* __restrict__ out,
                             int width, int height) {
  __shared__ float tile[TILE_H + 2 * HALO][TILE_W + 2 * HALO];
  const int x0 = blockIdx.x * TILE_W - HALO;
  const int y0 = blockIdx.y * TILE_H - HALO;
  for (int ty = threadIdx.y; ty < TILE_H + 2 * HALO; ty += blockDim.y)
    for (int tx = threadIdx.x; tx < TILE_W + 2 * HALO; tx += blockDim.x) {
      const int gx = min(max(x0 + tx, 0), width - 1);
      const int gy = min(max(y0 + ty, 0), height - 1);
      tile[ty][tx] = img[(size_t)gy * width + gx];
    }
  __syncthreads();
  for (int ty = threadIdx.y; ty < TILE_H; ty += blockDim.y)
    for (int tx = threadIdx.x; tx < TILE_W; tx += blockDim.x) {
      const int gx = blockIdx.x * TILE_W + tx, gy = blockIdx.y * TILE_H + ty;
      if (gx >= width || gy >= height) continue;
      float acc = 0.0f;
      for (int fy = 0; fy < KSIZE; ++fy)
        for (int fx = 0; fx < KSIZE; ++fx)
          acc += c_filter[fy * KSIZE + fx] * tile[ty + fy][tx + fx];
      out[(size_t)gy * width + gx] = acc;
    }
}

void conv2d(const float* img, float* out, int width, int height, cudaStream_t s) {
  dim3 grid((width + TILE_W - 1) / TILE_W, (height + TILE_H - 1) / TILE_H);
  conv2d_tiled<<<grid, dim3(CONV_BX, CONV_BY), 0, s>>>(img, out, width, height);
}
