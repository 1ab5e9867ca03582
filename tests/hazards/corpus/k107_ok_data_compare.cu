__global__ void k(float* out, int n) {
  if (n < 32) out[0] = __shfl_sync(__activemask(), out[1], 0);
}
