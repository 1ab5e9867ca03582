#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <curand.h>

#include "fill.h"

#define BR_CHECK(call)                                                        \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_));      \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

constexpr float span(float lo, float hi) { return hi - lo; }

__global__ void affine_kernel(float* x, int n, float lo, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = lo + x[i] * span(lo, hi);
}

std::vector<float> uniform_between(int n, float lo, float hi, unsigned long long seed) {
  float* d = nullptr;
  BR_CHECK(cudaMalloc(&d, n * sizeof(float)));
  curandGenerator_t gen;
  if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS) std::exit(2);
  curandSetPseudoRandomGeneratorSeed(gen, seed);
  curandGenerateUniform(gen, d, n);
  affine_kernel<<<(n + 255) / 256, 256>>>(d, n, lo, hi);
  BR_CHECK(cudaGetLastError());
  std::vector<float> out(n);
  BR_CHECK(cudaMemcpy(out.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  curandDestroyGenerator(gen);
  BR_CHECK(cudaFree(d));
  return out;
}
