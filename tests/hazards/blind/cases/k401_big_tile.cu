#define TILE 160
__global__ void big(float* p) {
  __shared__ float a[TILE][TILE];
  a[threadIdx.y][threadIdx.x] = p[0];
  p[1] = a[0][0];
}
