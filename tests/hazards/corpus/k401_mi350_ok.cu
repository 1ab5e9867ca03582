#define TILE 160
__global__ void k(float* p) {
  __shared__ float a[TILE][TILE];
  a[threadIdx.y][threadIdx.x] = p[0];
}
