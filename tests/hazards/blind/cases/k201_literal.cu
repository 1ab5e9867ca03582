__device__ float xor1(float v) {
  return __shfl_xor_sync(0xffffffff, v, 1);
}
