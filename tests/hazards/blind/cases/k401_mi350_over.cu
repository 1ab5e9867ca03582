__global__ void too_big_mi350(float* p) {
  __shared__ float s[180 * 256];
  s[threadIdx.x] = p[threadIdx.x];
  p[threadIdx.x] = s[threadIdx.x];
}
