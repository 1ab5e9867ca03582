__global__ void k(const float* in, int n) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = in[threadIdx.x];
}
