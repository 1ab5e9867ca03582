__device__ float quad_sum(float v) {
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1, 16);
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 2, warpSize);
  return v;
}
