#define FULL_MASK 0xffffffff
__device__ float down1(float v) {
  return __shfl_down_sync(FULL_MASK, v, 1);
}
