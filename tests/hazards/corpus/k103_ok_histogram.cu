__global__ void hist(const unsigned char* d, int* bins) {
  __shared__ int h[32];
  int bucket = d[threadIdx.x] >> 3;
  atomicAdd(&h[bucket], 1);
  __syncthreads();
  bins[threadIdx.x] = h[threadIdx.x];
}
