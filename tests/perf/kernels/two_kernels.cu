// Two kernels for cuda2rocm's kernel-level benchmark tests: `scale` and `accumulate`, each launched 20 times.
// `two_kernels slow` makes `accumulate` do 8x the work: the deliberately slowed kernel that `bench compare`
// must name. Written for cuda2rocm's tests.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

__global__ void accumulate(const float *x, float *y, int n, int rounds) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int r = 0; r < rounds; ++r) {
    tile[threadIdx.x] = i < n ? x[(i + r * 97) % n] : 0.f;
    __syncthreads();
    acc += tile[(threadIdx.x + r) % blockDim.x];
    __syncthreads();
  }
  if (i < n) y[i] = acc;
}

int main(int argc, char **argv) {
  const int n = 1 << 22, rounds = (argc > 1 && std::strcmp(argv[1], "slow") == 0) ? 64 : 8;
  float *x = nullptr, *y = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&y, n * sizeof(float)) != cudaSuccess) {
    std::printf("two_kernels: FAILED (cudaMalloc)\n");
    return 1;
  }
  cudaMemset(x, 0, n * sizeof(float));
  for (int k = 0; k < 20; ++k) {
    scale<<<(n + 255) / 256, 256>>>(x, 1.0001f, n);
    accumulate<<<(n + 255) / 256, 256>>>(x, y, n, rounds);
  }
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("two_kernels: %s (rounds %d)\n", err == cudaSuccess ? "PASSED" : cudaGetErrorString(err), rounds);
  cudaFree(x);
  cudaFree(y);
  return err == cudaSuccess ? 0 : 1;
}
