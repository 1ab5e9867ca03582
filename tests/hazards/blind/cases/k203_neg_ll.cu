__device__ int ll(bool p) {
  unsigned long long b = __ballot_sync(0xffffffffffffffffULL, p);
  return __popcll(b) + __ffsll(b);
}
