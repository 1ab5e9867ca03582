#include <cstdio>
__device__ void trace(int step, float x) { printf("step %d: %f\n", step, x); }
__global__ void k(float* p) { trace(0, p[threadIdx.x]); }
