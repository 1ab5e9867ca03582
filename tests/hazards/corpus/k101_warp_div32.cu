__global__ void k(float* out, float v) {
  int warp_id = threadIdx.x / 32;
  v = __shfl_sync(__activemask(), v, 0);
  out[warp_id] = v;
}
