__global__ void k(int* out) {
  unsigned laneId = threadIdx.x % 32;
  out[threadIdx.x] = laneId;
}
