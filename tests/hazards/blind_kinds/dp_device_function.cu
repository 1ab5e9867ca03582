#include <cuda_runtime.h>

__global__ void fill(int* out, int value, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = value;
}

__device__ void spawn_fill(int* out, int value, int count) {
  fill<<<(count + 255) / 256, 256>>>(out, value, count);
}

__global__ void expand_runs(int* out, const int* offsets, const int* values, int runs) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= runs) return;
  spawn_fill(out + offsets[r], values[r], offsets[r + 1] - offsets[r]);
}
