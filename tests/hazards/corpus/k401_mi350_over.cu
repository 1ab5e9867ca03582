__global__ void k(float* p) {
  __shared__ float a[48 * 1024];
  a[threadIdx.x] = p[0];
}
