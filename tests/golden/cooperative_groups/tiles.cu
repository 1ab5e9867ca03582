#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out) {
    cg::thread_block block = cg::this_thread_block();
    out[block.thread_rank()] = 1;
    block.sync();
}
