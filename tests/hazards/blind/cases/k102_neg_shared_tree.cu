__global__ void tree(float* data) {
  __shared__ float s[256];
  s[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  for (int stride = 16; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) data[blockIdx.x] = s[0];
}
