__global__ void k(float* p) {
  __shared__ float a[128][128];
  a[threadIdx.y][threadIdx.x] = p[0];
}
