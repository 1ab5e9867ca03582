__global__ void fits(float* p) {
  __shared__ float s[12288];
  s[threadIdx.x] = p[threadIdx.x];
  p[threadIdx.x] = s[threadIdx.x];
}
