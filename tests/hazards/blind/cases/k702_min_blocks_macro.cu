#define THREADS 128
#define MIN_BLOCKS 4
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS) occ2(float* p) { p[threadIdx.x] = 0.0f; }
