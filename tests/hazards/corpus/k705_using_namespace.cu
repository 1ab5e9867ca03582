#include <cooperative_groups.h>
using namespace cooperative_groups;
__device__ int agg(int* ctr) {
  coalesced_group g = coalesced_threads();
  int prev = 0;
  if (g.thread_rank() == 0) prev = atomicAdd(ctr, g.size());
  return g.shfl(prev, 0) + g.thread_rank();
}
