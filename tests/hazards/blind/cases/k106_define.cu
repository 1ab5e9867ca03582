#define WARP_SIZE 32
#define THREADS_PER_WARP 32
__global__ void uses(int* out) { out[threadIdx.x] = WARP_SIZE + THREADS_PER_WARP; }
