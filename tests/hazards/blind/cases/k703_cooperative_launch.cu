#include <cuda_runtime.h>
__global__ void coop(float* p) { p[blockIdx.x] = 1.0f; }
void run_coop(float* p) {
  void* args[] = {&p};
  cudaLaunchCooperativeKernel((void*)coop, dim3(80), dim3(256), args, 0, 0);
}
