// Inclusive block-wide scan built from warp scans.
#include <cuda_runtime.h>
#include "../common/scan_params.h"

__device__ int warp_inclusive_scan(int v, int lane) {
  for (int d = 1; d < warpSize; d <<= 1) {
    const int up = __shfl_up_sync(SCAN_MASK, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

__global__ void block_scan_kernel(const int* __restrict__ in, int* __restrict__ out,
                                  int* __restrict__ block_sums, int n) {
  __shared__ int warp_totals[THREADS_PER_WARP];
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % THREADS_PER_WARP;
  const int warp = threadIdx.x / THREADS_PER_WARP;
  int v = gid < n ? in[gid] : 0;
  v = warp_inclusive_scan(v, lane);
  const int total = __shfl_sync(SCAN_MASK, v, warpSize - 1);
  if (lane == 0) warp_totals[warp] = total;
  __syncthreads();
  const int num_warps = blockDim.x / THREADS_PER_WARP;
  if (warp == 0) {
    int t = lane < num_warps ? warp_totals[lane] : 0;
    t = warp_inclusive_scan(t, lane);
    warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (gid < n) out[gid] = v;
  if (threadIdx.x == blockDim.x - 1) block_sums[blockIdx.x] = v;
}

void block_scan(const int* in, int* out, int* block_sums, int n, cudaStream_t s) {
  const int blocks = (n + SCAN_BLOCK - 1) / SCAN_BLOCK;
  block_scan_kernel<<<blocks, SCAN_BLOCK, 0, s>>>(in, out, block_sums, n);
}
