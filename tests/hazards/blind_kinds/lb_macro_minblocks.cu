#include <cuda_runtime.h>

#define KERNEL_BOUNDS(threads, min_blocks) __launch_bounds__(threads, min_blocks)

__global__ void KERNEL_BOUNDS(256, 4) bias_gelu(float* x, const float* bias, int n, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i] + bias[i % cols];
  x[i] = 0.5f * v * (1.f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
}
