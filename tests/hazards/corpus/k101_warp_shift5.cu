__global__ void k(int* out) {
  const int wid = threadIdx.x >> 5;
  out[blockIdx.x * 8 + wid] = 1;
}
