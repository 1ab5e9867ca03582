__global__ void shift_warp(int* out) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  int w = threadIdx.x >> 5;
  int any = __any_sync(0xffffffffffffffffULL, t & 1);
  out[w] = any;
}
