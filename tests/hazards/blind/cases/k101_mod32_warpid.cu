__global__ void partials(const float* in, float* out) {
  int tid = threadIdx.x;
  int warp_id = tid / 32;
  int lane_id = tid % 32;
  float v = in[tid];
  v += __shfl_down_sync(0xffffffffffffffffULL, v, 1);
  if (lane_id == 0) out[warp_id] = v;
}
