__device__ int warp_minmax(int v) {
  int lo = __reduce_min_sync(__activemask(), v);
  int hi = __reduce_max_sync(__activemask(), v);
  return hi - lo;
}
