__global__ void block_sum(const float* in, float* out) {
  __shared__ float warp_sums[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffffffffffULL, v, o);
  if (lane == 0) warp_sums[wid] = v;
  __syncthreads();
  v = (threadIdx.x < blockDim.x / warpSize) ? warp_sums[lane] : 0.0f;
  if (wid == 0) out[blockIdx.x] = v;
}
