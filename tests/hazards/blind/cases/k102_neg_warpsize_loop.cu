__device__ float good_reduce(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffffffffffULL, v, o);
  return v;
}
