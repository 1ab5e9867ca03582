#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void cg_red(const int* in, int* out) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  int s = cg::reduce(tile, in[threadIdx.x], cg::plus<int>());
  if (tile.thread_rank() == 0) atomicAdd(out, s);
}
