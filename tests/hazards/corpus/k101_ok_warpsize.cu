__global__ void k(float* out, float v) {
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  v += __shfl_xor_sync(__activemask(), v, 1);
  if (lane == 0) out[warp] = v;
}
