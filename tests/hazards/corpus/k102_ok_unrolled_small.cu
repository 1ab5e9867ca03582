__device__ float quad_sum(float v) {
  v += __shfl_xor_sync(__activemask(), v, 2);
  v += __shfl_xor_sync(__activemask(), v, 1);
  return v;
}
