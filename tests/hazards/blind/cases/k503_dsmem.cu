#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void dsmem(int* out) {
  __shared__ int v;
  cg::cluster_group cluster = cg::this_cluster();
  v = threadIdx.x;
  cluster.sync();
  int* peer = cluster.map_shared_rank(&v, (cluster.block_rank() + 1) % 2);
  out[blockIdx.x] = *peer;
}
