// Class 5: butterfly reduction through a shuffle macro: #define SHFL_XOR(v, m) __shfl_xor_sync(...)
#include <cuda_runtime.h>

#define SHFL_XOR(v, m) __shfl_xor_sync(0xffffffff, v, m)
#define WARP_SIZE 32

__device__ __forceinline__ float warp_allreduce_sum(float v) {
#pragma unroll
  for (int m = WARP_SIZE / 2; m > 0; m >>= 1) v += SHFL_XOR(v, m);
  return v;
}

__global__ void softmax_denominator(const float* logits, float* denom, int rows, int cols) {
  int row = blockIdx.x;
  if (row >= rows) return;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += WARP_SIZE) s += __expf(logits[row * cols + c]);
  s = warp_allreduce_sum(s);
  if (threadIdx.x == 0) denom[row] = s;
}

void launch_denominator(const float* logits, float* denom, int rows, int cols) {
  softmax_denominator<<<rows, WARP_SIZE>>>(logits, denom, rows, cols);
}
