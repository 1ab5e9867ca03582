// Class 1: math_constants.h with CUDART_* constants actually used (float and double).
#include <cuda_runtime.h>
#include <math_constants.h>

__global__ void gaussian_window(float* w, int n, float sigma) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = (i - 0.5f * n) / sigma;
  w[i] = expf(-0.5f * x * x) / (sigma * sqrtf(2.0f * CUDART_PI_F));
}

__global__ void phase(double* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = fmod(i * CUDART_PI / 8.0, 2.0 * CUDART_PI);
}

int main() {
  float* w; double* p;
  cudaMalloc(&w, 256 * sizeof(float));
  cudaMalloc(&p, 256 * sizeof(double));
  gaussian_window<<<1, 256>>>(w, 256, 20.0f);
  phase<<<1, 256>>>(p, 256);
  cudaDeviceSynchronize();
  cudaFree(w);
  cudaFree(p);
  return 0;
}
