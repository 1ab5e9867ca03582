#include <cuda_runtime.h>

// sums inside independent segments of one warp
constexpr int kSegment = 32;

__device__ float segment_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync(__activemask(), v, o, kSegment);
  return v;
}

__global__ void seg_reduce(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = segment_sum(x[i]);
  if ((threadIdx.x & (warpSize - 1)) == 0) y[i / warpSize] = s;
}
