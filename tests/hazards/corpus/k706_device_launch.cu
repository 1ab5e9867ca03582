__global__ void refine(float* cells, int n) { if (threadIdx.x < n) cells[threadIdx.x] *= 0.5f; }
__global__ void adapt(float* cells, const int* counts) {
  int n = counts[blockIdx.x];
  if (threadIdx.x == 0 && n > 0) {
    refine<<<1, 128>>>(cells + blockIdx.x * 128, n);
    cudaDeviceSynchronize();
  }
}
