__device__ float warp_sum(float v) {
  v += __shfl_down_sync(__activemask(), v, 16);
  v += __shfl_down_sync(__activemask(), v, 8);
  v += __shfl_down_sync(__activemask(), v, 4);
  v += __shfl_down_sync(__activemask(), v, 2);
  v += __shfl_down_sync(__activemask(), v, 1);
  return v;
}
