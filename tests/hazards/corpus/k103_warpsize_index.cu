__global__ void k(float* out, float v) {
  __shared__ float sums[32];
  int w = threadIdx.x / warpSize;
  sums[w] = v;
  __syncthreads();
  if (threadIdx.x == 0) out[0] = sums[0];
}
