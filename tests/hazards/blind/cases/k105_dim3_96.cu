__device__ float r(float v) { return v + __shfl_xor_sync(0xffffffffffffffffULL, v, 1); }
__global__ void k96(float* p) { p[threadIdx.x] = r(p[threadIdx.x]); }
void go96(float* p) {
  dim3 block(96);
  k96<<<4, block>>>(p);
}
