__device__ float half_warp(float v) {
  return __shfl_xor_sync(__activemask(), v, 1, 16);
}
