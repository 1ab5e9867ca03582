#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const float* g) {
  __shared__ float s[256];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, s, g, sizeof(float) * 256);
  cg::wait(block);
}
