__device__ bool everyone2(bool p) {
  unsigned long long b = __ballot_sync(0xffffffffffffffffULL, p);
  if (b == 0xFFFFFFFFu) return true;
  return false;
}
