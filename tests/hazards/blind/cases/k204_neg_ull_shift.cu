__device__ bool lane_in64(unsigned long long mask) {
  int lane = threadIdx.x % warpSize;
  return (mask & (1ull << lane)) != 0;
}
