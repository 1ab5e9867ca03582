__device__ unsigned long long votes(bool p) {
  return __ballot_sync(0xffffffff, p);
}
