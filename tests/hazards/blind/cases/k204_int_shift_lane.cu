__device__ unsigned lower_lanes() {
  int lane = threadIdx.x & (warpSize - 1);
  unsigned lt = (1 << lane) - 1;
  return lt;
}
