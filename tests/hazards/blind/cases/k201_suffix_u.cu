__device__ int any_pos(int x) {
  return __any_sync(0xFFFFFFFFu, x > 0);
}
