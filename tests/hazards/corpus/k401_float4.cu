__global__ void k(const float4* in) {
  __shared__ float4 buf[5000];
  buf[threadIdx.x] = in[threadIdx.x];
}
