#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void two_phase(float* p, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) p[i] *= 2.0f;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) p[i] += 1.0f;
}
