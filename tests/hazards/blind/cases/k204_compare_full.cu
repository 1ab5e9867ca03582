__device__ bool everyone(bool p) {
  return __ballot_sync(0xffffffffffffffffULL, p) == 0xffffffff;
}
