// Sums fixed-length segments; each 32-thread group owns one segment.
#include <cuda_runtime.h>
#include "../include/tile_cfg.cuh"

__global__ void segment_sum(const float* __restrict__ x, float* __restrict__ out,
                            int seg_len, int nseg) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<kTileSize> tile = cg::tiled_partition<kTileSize>(block);
  const int seg = blockIdx.x * kTilesPerBlock + tile.meta_group_rank();
  if (seg >= nseg) return;
  const float* xs = x + (size_t)seg * seg_len;
  float v = 0.0f;
  for (int i = tile.thread_rank(); i < seg_len; i += tile.size()) v += xs[i];
  for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0) out[seg] = v;
}

void segment_sums(const float* x, float* out, int seg_len, int nseg, cudaStream_t s) {
  const int blocks = (nseg + kTilesPerBlock - 1) / kTilesPerBlock;
  segment_sum<<<blocks, kBlockThreads, 0, s>>>(x, out, seg_len, nseg);
}
