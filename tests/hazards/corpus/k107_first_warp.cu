__global__ void k(float* out, float v) {
  if (threadIdx.x >= 32) return;
  out[0] = __shfl_sync(__activemask(), v, 0);
}
