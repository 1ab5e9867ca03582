__global__ void hist32(const unsigned char* v, int n, unsigned* out) {
  __shared__ unsigned bins[32];
  if (threadIdx.x < 32) bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[v[i] & 31], 1u);
  __syncthreads();
  if (threadIdx.x < 32) atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
}
