__device__ int warp_scan(int v) {
  int lane = threadIdx.x % warpSize;
  for (int d = 1; d < 32; d <<= 1) {
    int n = __shfl_up_sync(0xffffffffffffffffULL, v, d);
    if (lane >= d) v += n;
  }
  return v;
}
