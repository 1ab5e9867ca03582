__global__ void block_sum(float* out, float v) {
  __shared__ float partial[32];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(__activemask(), v, o);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = (threadIdx.x < blockDim.x / warpSize) ? partial[lane] : 0.0f;
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
