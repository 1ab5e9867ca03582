// Dot product with a two-level (wavefront, block) reduction.
#include <cuda_runtime.h>
#include "../include/hw.h"

__device__ __forceinline__ float wave_sum(float v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__global__ void dot_kernel(const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ out, int n) {
  __shared__ float partial[WARP_SIZE];
  const int lane = threadIdx.x % WARP_SIZE;
  const int wave = threadIdx.x / WARP_SIZE;
  const int nwaves = blockDim.x / WARP_SIZE;
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    s += a[i] * b[i];
  s = wave_sum(s);
  if (lane == 0) partial[wave] = s;
  __syncthreads();
  if (wave == 0) {
    s = lane < nwaves ? partial[lane] : 0.0f;
    s = wave_sum(s);
    if (lane == 0) atomicAdd(out, s);
  }
}

void dot(const float* a, const float* b, float* out, int n, cudaStream_t stream) {
  const int blocks = (n + REDUCE_THREADS - 1) / REDUCE_THREADS;
  cudaMemsetAsync(out, 0, sizeof(float), stream);
  dot_kernel<<<blocks, REDUCE_THREADS, 0, stream>>>(a, b, out, n);
}
