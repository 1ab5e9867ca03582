// Class 5: macros with a sub-warp width argument: SHFL_DOWN(v, d, w) / SHFL_IDX(v, src, w).
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define SHFL_DOWN(v, d, w) __shfl_down_sync(FULL_MASK, (v), (d), (w))
#define SHFL_IDX(v, s, w) __shfl_sync(FULL_MASK, (v), (s), (w))
#define GROUP 8

__global__ void segment_sum(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int d = GROUP / 2; d > 0; d >>= 1) v += SHFL_DOWN(v, d, GROUP);
  v = SHFL_IDX(v, 0, GROUP);
  if (i < n) out[i] = v;
}

void run_segment_sum(const int* in, int* out, int n, cudaStream_t s) {
  segment_sum<<<(n + 127) / 128, 128, 0, s>>>(in, out, n);
}
