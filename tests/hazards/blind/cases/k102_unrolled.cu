__device__ float unrolled(float v) {
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 16);
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 8);
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 4);
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 2);
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1);
  return v;
}
