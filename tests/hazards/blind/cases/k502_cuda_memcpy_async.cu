#include <cooperative_groups.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;
__global__ void pipe_copy(const float* g, float* out) {
  __shared__ float s[128];
  auto block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = s[threadIdx.x];
  block.sync();
}
