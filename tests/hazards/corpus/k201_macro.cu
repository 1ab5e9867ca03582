#define FULL_MASK 0xffffffff
__device__ float f(float v) { return __shfl_xor_sync(FULL_MASK, v, 4); }
