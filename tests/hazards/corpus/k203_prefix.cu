__device__ int rank(bool p, unsigned lt_mask) {
  unsigned b = __ballot_sync(__activemask(), p);
  return __popc(b & lt_mask);
}
