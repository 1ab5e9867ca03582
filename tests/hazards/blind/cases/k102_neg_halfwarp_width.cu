__device__ float segment_sum8(float v) {
  for (int o = 4; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffffffffffULL, v, o, 8);
  return v;
}
