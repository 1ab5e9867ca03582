__device__ bool mine(unsigned long long b) {
  int lane = __lane_id();
  return (b & (1ull << lane)) != 0;
}
