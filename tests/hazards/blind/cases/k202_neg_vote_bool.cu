__device__ int vote_bool(int x) {
  int a = __any_sync(0xffffffffffffffffULL, x);
  unsigned b = __all_sync(0xffffffffffffffffULL, x);
  return a + b;
}
