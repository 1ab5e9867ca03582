__device__ unsigned long long lt(int ignored) {
  int lane = __lane_id();
  return (1 << lane) - 1;
}
