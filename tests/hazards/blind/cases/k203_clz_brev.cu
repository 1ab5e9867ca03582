__device__ int highest(bool p) {
  unsigned long long b = __ballot_sync(0xffffffffffffffffULL, p);
  int hi = 31 - __clz(b);
  unsigned r = __brev(b);
  return hi + (int)r;
}
