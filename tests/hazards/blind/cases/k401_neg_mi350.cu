__global__ void big_on_mi350(float* p) {
  __shared__ float s[100 * 256];
  s[threadIdx.x] = p[threadIdx.x];
  p[threadIdx.x] = s[threadIdx.x];
}
