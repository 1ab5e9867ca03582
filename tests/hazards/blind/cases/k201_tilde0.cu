__device__ int all_pos(int x) {
  return __all_sync(~0u, x > 0);
}
