#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* p) { cg::this_thread_block().sync(); p[0] = 1.0f; }
