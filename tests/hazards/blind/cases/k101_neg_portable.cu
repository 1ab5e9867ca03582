__global__ void portable(float* out, float v) {
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1);
  if (lane == 0) out[blockIdx.x * nwarps + warp] = v;
}
