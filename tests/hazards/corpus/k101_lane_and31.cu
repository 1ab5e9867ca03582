__global__ void k(float* out, const float* in) {
  float v = in[threadIdx.x];
  int lane = threadIdx.x & 31;
  v += __shfl_xor_sync(0xffffffff, v, 1);
  if (lane == 0) out[threadIdx.x] = v;
}
