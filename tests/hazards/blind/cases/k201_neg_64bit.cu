__device__ float ok64(float v) {
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1);
  v += __shfl_xor_sync(__activemask(), v, 2);
  return v;
}
