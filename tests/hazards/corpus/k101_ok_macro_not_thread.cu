#define WARP_SIZE 64
__global__ void k(float* out, int n) {
  int chunks = n / WARP_SIZE;
  out[threadIdx.x] = chunks;
}
