__device__ int count_votes(bool p) {
  unsigned b = __ballot_sync(0xffffffffffffffffULL, p);
  return b != 0;
}
