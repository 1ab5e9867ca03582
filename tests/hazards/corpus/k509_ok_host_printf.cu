#include <cstdio>
#include <cstdlib>
__global__ void k(float* p) { p[threadIdx.x] = 1.0f; }
void report(const float* host, int n) {
  float* copy = static_cast<float*>(std::malloc(n * sizeof(float)));
  for (int i = 0; i < n; ++i) std::printf("%d %f\n", i, host[i]);
  std::free(copy);
}
