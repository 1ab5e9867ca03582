__device__ float f(float v) {
  const unsigned mask = 0xffffffff;
  return __shfl_sync(mask, v, 0);
}
