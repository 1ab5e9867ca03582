__device__ float broadcast0(float v) {
  return __shfl_sync(0xffffffffffffffffULL, v, 0, 32);
}
__device__ float down_w32(float v) {
  return __shfl_down_sync(0xffffffffffffffffULL, v, 1, 32);
}
