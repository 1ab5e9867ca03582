constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
__global__ void stage(float* out, float v) {
  __shared__ float part[kWarps];
  int warp = threadIdx.x / warpSize;
  v += __shfl_xor_sync(0xffffffffffffffffULL, v, 1);
  part[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) out[0] = part[0];
}
