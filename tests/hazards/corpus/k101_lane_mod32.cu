__global__ void k(float* out, const float* in) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = tid % 32;
  float v = __shfl_down_sync(0xffffffffffffffffULL, in[tid], 1);
  if (lane == 0) out[tid] = v;
}
