__device__ float max_reduce(float v) {
  for (int m = 16; m >= 1; m /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffffffffffULL, v, m));
  return v;
}
