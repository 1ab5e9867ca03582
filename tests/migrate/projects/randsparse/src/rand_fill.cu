#include <curand.h>
#include "api.h"
#include "common.cuh"

__global__ void scale_kernel(float* x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

std::vector<float> random_scaled(int n, float scale, unsigned long long seed) {
  float* d = nullptr;
  RS_CHECK(cudaMalloc(&d, n * sizeof(float)));
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(gen, seed);
  curandGenerateUniform(gen, d, n);
  scale_kernel<<<(n + 255) / 256, 256>>>(d, n, scale);
  RS_CHECK(cudaGetLastError());
  std::vector<float> out(n);
  RS_CHECK(cudaMemcpy(out.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  curandDestroyGenerator(gen);
  RS_CHECK(cudaFree(d));
  return out;
}
