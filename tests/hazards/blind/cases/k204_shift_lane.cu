__device__ bool lane_in(unsigned long long mask) {
  int lane = threadIdx.x % warpSize;
  return (mask & (1u << lane)) != 0;
}
