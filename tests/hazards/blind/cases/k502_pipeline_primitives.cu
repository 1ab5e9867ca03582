#include <cuda_pipeline.h>
__global__ void stage_copy(const float* g) {
  __shared__ float s[256];
  __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
}
