#define WARP_SIZE 32
__global__ void macro_use(float* out, float v) {
  int warp = threadIdx.x / WARP_SIZE;
  int lane = threadIdx.x & (WARP_SIZE - 1);
  v += __shfl_down_sync(0xffffffffffffffffULL, v, 1);
  if (lane == 0) out[warp] = v;
}
