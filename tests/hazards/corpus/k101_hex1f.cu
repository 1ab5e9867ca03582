__device__ int my_lane() { return threadIdx.x & 0x1f; }
__global__ void k(int* out, int v) {
  int lane = threadIdx.x & 0x1f;
  out[threadIdx.x] = __shfl_up_sync(__activemask(), v, 1) + lane;
}
