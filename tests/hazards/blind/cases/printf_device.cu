#include <cstdio>
__global__ void debug_kernel(const float* p) {
  if (threadIdx.x == 0) printf("block %d value %f\n", blockIdx.x, p[blockIdx.x]);
}
