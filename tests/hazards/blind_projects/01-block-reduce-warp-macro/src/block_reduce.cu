#include <cuda_runtime.h>
#include "../include/reduce_config.h"

__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__device__ float block_reduce_sum(float v) {
  __shared__ float shared[WARP_SIZE];
  const int lane = threadIdx.x % WARP_SIZE;
  const int wid = threadIdx.x / WARP_SIZE;
  v = warp_reduce_sum(v);
  if (lane == 0) shared[wid] = v;
  __syncthreads();
  const int nwarps = blockDim.x / WARP_SIZE;
  v = (threadIdx.x < nwarps) ? shared[lane] : 0.0f;
  if (wid == 0) v = warp_reduce_sum(v);
  return v;
}

__global__ void reduce_sum_kernel(const float* __restrict__ in,
                                  float* __restrict__ out, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = block_reduce_sum(sum);
  if (threadIdx.x == 0) atomicAdd(out, sum);
}

void reduce_sum(const float* in, float* out, int n, cudaStream_t stream) {
  int blocks = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
  if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
  cudaMemsetAsync(out, 0, sizeof(float), stream);
  reduce_sum_kernel<<<blocks, BLOCK_THREADS, 0, stream>>>(in, out, n);
}
