#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) { cg::thread_block b = cg::this_thread_block(); b.sync(); out[0] = 1; }
