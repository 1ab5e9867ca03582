#define TILE 32
__global__ void k(float* p) {
  __shared__ float a[TILE][TILE + 1];
  a[threadIdx.y][threadIdx.x] = p[0];
}
