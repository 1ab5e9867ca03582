#include <cuda_runtime.h>

constexpr int kSmemBytes = 48 * 1024;

__global__ void stage_rows(const float* in, float* out, int n) {
  extern __shared__ float buf[];
  int per_block = kSmemBytes / (int)sizeof(float);
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) buf[i] = in[blockIdx.x * per_block + i];
  __syncthreads();
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) out[blockIdx.x * per_block + i] = buf[per_block - 1 - i];
}

void run_stage_rows(const float* in, float* out, int blocks, cudaStream_t s) {
  cudaFuncSetAttribute(stage_rows, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  stage_rows<<<blocks, 256, kSmemBytes, s>>>(in, out, blocks * (kSmemBytes / 4));
}
