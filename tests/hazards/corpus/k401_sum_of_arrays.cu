__global__ void k(const double* a) {
  __shared__ double x[5000];
  __shared__ double y[5000];
  x[threadIdx.x] = a[threadIdx.x];
  y[threadIdx.x] = x[threadIdx.x];
}
