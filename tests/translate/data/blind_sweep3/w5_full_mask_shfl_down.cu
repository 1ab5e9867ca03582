// Class 5: FULL_MASK macro in a __shfl_down_sync tree reduction, then a block reduction.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

template <typename T>
__device__ T warp_reduce(T v) {
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(FULL_MASK, v, off);
  return v;
}

__global__ void block_reduce(const double* x, double* partial, int n) {
  __shared__ double warp_part[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? x[i] : 0.0;
  v = warp_reduce(v);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x / 32) ? warp_part[lane] : 0.0;
    v = warp_reduce(v);
    if (lane == 0) partial[blockIdx.x] = v;
  }
}

void launch_block_reduce(const double* x, double* partial, int n) {
  block_reduce<<<(n + 511) / 512, 512>>>(x, partial, n);
}
