#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
  __shared__ int s[64];
  cg::cluster_group cluster = cg::this_cluster();
  int* remote = cluster.map_shared_rank(s, 1);
  cluster.sync();
  out[0] = remote[0];
}
