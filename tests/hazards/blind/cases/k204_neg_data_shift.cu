__global__ void flags(unsigned* out, const int* bit) {
  int b = bit[threadIdx.x];
  out[threadIdx.x] = 1u << b;
}
