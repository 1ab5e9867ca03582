#define WARP_SIZE 32
__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x % WARP_SIZE; }
