#include <cuda_runtime.h>

enum { kWarpThreads = 32 };

__device__ int warp_inclusive_scan(int v) {
  int lane = threadIdx.x & (warpSize - 1);
  for (int d = 1; d < kWarpThreads; d <<= 1) {
    int t = __shfl_up_sync(__activemask(), v, d);
    if (lane >= d) v += t;
  }
  return v;
}

__global__ void scan_counts(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  v = warp_inclusive_scan(v);
  if (i < n) out[i] = v;
}
