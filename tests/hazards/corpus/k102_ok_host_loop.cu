void host_bits(int* out) {
  for (int b = 16; b > 0; b >>= 1) out[b] = b;
}
