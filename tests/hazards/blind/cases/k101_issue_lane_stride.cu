__global__ void row_sum(const float* m, float* out, int cols) {
  int lane = threadIdx.x % warpSize;
  const float* row = m + blockIdx.x * cols;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32)
    s += row[c];
  for (int o = warpSize / 2; o > 0; o >>= 1)
    s += __shfl_down_sync(0xffffffffffffffffULL, s, o);
  if (lane == 0) out[blockIdx.x] = s;
}
