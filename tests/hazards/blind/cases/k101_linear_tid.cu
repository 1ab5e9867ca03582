__global__ void linear(float* out, const float* in, int n) {
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = gtid & 31;
  int gwarp = gtid / 32;
  float v = gtid < n ? in[gtid] : 0.0f;
  unsigned long long b = __ballot_sync(0xffffffffffffffffULL, v > 0.0f);
  if (lane == 0) out[gwarp] = (float)__popcll(b);
}
