__device__ int last(bool p) {
  unsigned long long b = __ballot_sync(__activemask(), p);
  return 31 - __clz(b);
}
