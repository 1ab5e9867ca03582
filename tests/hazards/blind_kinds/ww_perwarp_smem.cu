#include <cuda_runtime.h>

#define THREADS 256
#define WARP_THREADS 32

__device__ float warp_max(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(__activemask(), v, o));
  return v;
}

__global__ void __launch_bounds__(THREADS) absmax(const float* x, float* out, int n) {
  __shared__ float red[THREADS / WARP_THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  float v = i < n ? fabsf(x[i]) : 0.f;
  v = warp_max(v);
  if (threadIdx.x % warpSize == 0) red[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float m = 0.f;
    for (int w = 0; w < THREADS / WARP_THREADS; ++w) m = fmaxf(m, red[w]);
    out[blockIdx.x] = m;
  }
}
