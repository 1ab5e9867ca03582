__device__ bool mine(unsigned long long b) {
  int lane = threadIdx.x & 31;
  return (b & (1u << lane)) != 0;
}
