#include <cstdio>
__global__ void dump(const float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && v[i] != v[i]) printf("nan at %d\n", i);
}
