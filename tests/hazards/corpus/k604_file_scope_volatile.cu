__device__ volatile int g_ready;
__global__ void wait_ready() { while (!g_ready) { } }
