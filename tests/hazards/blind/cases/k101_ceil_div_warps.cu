__global__ void ceil_warps(float* out, float x) {
  int num_warps = (blockDim.x + 31) / 32;
  x += __shfl_xor_sync(0xffffffffffffffffULL, x, 2);
  out[threadIdx.x % num_warps] = x;
}
