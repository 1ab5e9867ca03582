__device__ float bcast(float v, int src) {
  return __shfl_sync(__activemask(), v, src, 32);
}
