#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int agg_inc(int* ctr) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev = 0;
  if (g.thread_rank() == 0) prev = atomicAdd(ctr, g.size());
  return g.shfl(prev, 0) + g.thread_rank();
}
