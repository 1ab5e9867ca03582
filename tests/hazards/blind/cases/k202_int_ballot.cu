__device__ int ballot_int(int x) {
  int bits = __ballot_sync(0xffffffffffffffffULL, x > 0);
  return bits;
}
