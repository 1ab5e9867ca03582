#include "hip/hip_runtime.h"
__global__ void k(float* x) { x[threadIdx.x] = 0.f; }
void go(float* d) { hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d); hipDeviceSynchronize(); }
