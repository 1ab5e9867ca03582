#define WARP_SIZE warpSize
#define TILE 32
#define BLOCK_THREADS 256
__global__ void p(int* out) { out[threadIdx.x] = WARP_SIZE + TILE; }
