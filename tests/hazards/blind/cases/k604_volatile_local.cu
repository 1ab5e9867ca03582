__device__ volatile int g_done;
__global__ void wait_global() {
  while (!g_done) { }
}
