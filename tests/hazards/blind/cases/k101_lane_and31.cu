__global__ void warp_sum(const float* in, float* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int lane = threadIdx.x & 31;
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1);
  if (lane == 0) atomicAdd(out, v);
}
