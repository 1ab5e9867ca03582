__device__ float f(float v) {
  return v + __shfl_xor_sync(__activemask(), v, 1, 32);
}
