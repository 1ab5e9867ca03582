__global__ void hi_bits(const unsigned* in, unsigned* out) {
  unsigned v = in[threadIdx.x];
  out[threadIdx.x] = (v >> 5) & 31;
}
