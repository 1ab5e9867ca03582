__device__ int leader(bool p) {
  unsigned long long b = __ballot_sync(0xffffffffffffffffULL, p);
  return __ffs(b) - 1;
}
