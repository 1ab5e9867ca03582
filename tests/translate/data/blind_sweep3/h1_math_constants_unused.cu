// Class 1: math_constants.h included out of habit; no CUDART_* constant used.
#include <cuda_runtime.h>
#include <math_constants.h>

__global__ void sigmoid(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f / (1.0f + expf(-in[i]));
}

void launch_sigmoid(const float* in, float* out, int n, cudaStream_t s) {
  if (n <= 0) return;
  dim3 block(256);
  dim3 grid((n + block.x - 1) / block.x);
  sigmoid<<<grid, block, 0, s>>>(in, out, n);
}
