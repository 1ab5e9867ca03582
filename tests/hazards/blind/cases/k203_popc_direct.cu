__device__ int nvotes(bool p) {
  return __popc(__ballot_sync(0xffffffffffffffffULL, p));
}
