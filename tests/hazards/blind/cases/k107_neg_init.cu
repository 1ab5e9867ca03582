__global__ void init_small(int* out) {
  __shared__ int table[64];
  if (threadIdx.x < 32) table[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = table[threadIdx.x % 64];
}
