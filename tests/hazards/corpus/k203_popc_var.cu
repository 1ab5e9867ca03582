__device__ int votes(bool p) {
  unsigned long long b = __ballot_sync(__activemask(), p);
  return __popc(b);
}
