#define MAX_THREADS (1024 * 2)
__global__ void __launch_bounds__(MAX_THREADS) k(float* p) { p[threadIdx.x] = 0.0f; }
