__device__ float f(float v) { return __shfl_xor_sync(0x0000ffff, v, 1); }
