__device__ float warp_reduce(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffffffffffULL, v, offset);
  return v;
}
