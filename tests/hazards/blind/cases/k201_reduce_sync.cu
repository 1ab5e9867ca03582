__device__ int warp_total(int v) {
  return __reduce_add_sync(0xffffffff, v);
}
