__device__ float warp_max(float v) {
  for (int mask = 16; mask > 0; mask /= 2) {
    v = fmaxf(v, __shfl_xor_sync(__activemask(), v, mask));
  }
  return v;
}
