// Class 5: vote macros over a full mask: WARP_ANY / WARP_ALL wrap __any_sync / __all_sync.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define WARP_ANY(p) __any_sync(FULL_MASK, (p))
#define WARP_ALL(p) __all_sync(FULL_MASK, (p))

__global__ void check_finite(const float* x, int n, int* any_nan, int* all_pos) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 1.0f;
  int has_nan = WARP_ANY(isnan(v));
  int positive = WARP_ALL(v > 0.0f);
  if ((threadIdx.x & 31) == 0) {
    if (has_nan) atomicExch(any_nan, 1);
    if (!positive) atomicExch(all_pos, 0);
  }
}

void run_check(const float* x, int n, int* any_nan, int* all_pos) {
  check_finite<<<(n + 255) / 256, 256>>>(x, n, any_nan, all_pos);
}
