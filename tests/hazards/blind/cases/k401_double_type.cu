__global__ void dbl(double* p) {
  __shared__ double s[9000];
  s[threadIdx.x] = p[threadIdx.x];
  p[threadIdx.x] = s[threadIdx.x ^ 1];
}
