#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void tile_sum(const float* in, float* out) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  float v = in[threadIdx.x];
  for (int o = tile.size() / 2; o > 0; o >>= 1) v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0) atomicAdd(out, v);
}
