#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* p) {
  cg::grid_group g = cg::this_grid();
  p[threadIdx.x] = 1.0f;
  g.sync();
}
