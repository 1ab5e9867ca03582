__global__ void named_lane(int* out) {
  int lane = threadIdx.x % 32;
  out[threadIdx.x] = lane;
}
