__device__ bool all_true(bool p) {
  unsigned long long b = __ballot_sync(__activemask(), p);
  return b == 0xffffffff;
}
