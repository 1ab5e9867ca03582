__device__ float up1(float v) {
  unsigned mask = 0xffffffff;
  return __shfl_up_sync(mask, v, 1);
}
