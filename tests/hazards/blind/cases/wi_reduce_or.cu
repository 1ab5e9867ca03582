__device__ unsigned warp_or(unsigned v) {
  return __reduce_or_sync(0xffffffffffffffffULL, v);
}
