__global__ void strided(const float* x, float* out, int n, int step) {
  int lane = threadIdx.x & (warpSize - 1);
  float acc = 0.0f;
  int k = lane * step;
  while (k < n) {
    acc += x[k];
    k += 32 * step;
  }
  acc += __shfl_xor_sync(0xffffffffffffffffULL, acc, 1);
  out[lane] = acc;
}
