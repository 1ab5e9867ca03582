__device__ float f(float v) {
  return __shfl_sync(__activemask(), v, 32 - 1);
}
