__global__ void refine(float* cells, int n) { if (threadIdx.x < n) cells[threadIdx.x] *= 0.5f; }
void adapt(float* cells, int blocks) {
  refine<<<blocks, 128>>>(cells, 128);
  cudaDeviceSynchronize();
}
