__global__ void count_warps(float* out) {
  int nwarps = blockDim.x / 32;
  float v = __shfl_sync(0xffffffffffffffffULL, 1.0f, 0);
  if (threadIdx.x == 0) out[blockIdx.x] = v * nwarps;
}
