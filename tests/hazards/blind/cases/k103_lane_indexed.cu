__global__ void lane_slots(int* out) {
  __shared__ int slot[32];
  int lane = threadIdx.x & (warpSize - 1);
  slot[lane] = __ballot_sync(0xffffffffffffffffULL, 1) != 0;
  __syncthreads();
  out[threadIdx.x] = slot[lane];
}
