#include <cuda_runtime.h>
#include <curand.h>
#include <cstdio>

int main() {
  float* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(float));
  curandGenerator_t g;
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
  curandGenerateUniform(g, d, 64);
  curandDestroyGenerator(g);
  cudaFree(d);
  std::printf("ok\n");
  return 0;
}
