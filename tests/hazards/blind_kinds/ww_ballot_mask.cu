#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

// flags[w] = 1 when every element seen by warp w is positive
__global__ void all_positive(const float* x, int* flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool ok = i < n && x[i] > 0.f;
  unsigned votes = __ballot_sync(FULL_MASK, ok);
  if ((threadIdx.x & (warpSize - 1)) == 0)
    flags[i / warpSize] = (votes == FULL_MASK);
}
