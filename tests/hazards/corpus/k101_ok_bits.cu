__global__ void k(unsigned* out, const unsigned* in) {
  unsigned v = in[threadIdx.x];
  unsigned low5 = v & 31;
  unsigned words = v / 32;
  out[threadIdx.x] = low5 + words;
}
