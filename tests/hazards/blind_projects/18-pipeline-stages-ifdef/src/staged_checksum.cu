// Streams chunks through a ring of shared-memory stages and checksums them.
#include <cuda_runtime.h>
#include "../include/kernel_config.h"

__global__ void staged_checksum(const float* __restrict__ in, float* __restrict__ sums,
                                int chunks, int stages) {
  extern __shared__ float ring[];
  float acc = 0.0f;
  for (int ch = 0; ch < chunks; ++ch) {
    float* stage = ring + (ch % stages) * STAGE_FLOATS;
    const float* src = in + ((size_t)blockIdx.x * chunks + ch) * STAGE_FLOATS;
    for (int i = threadIdx.x; i < STAGE_FLOATS; i += blockDim.x) stage[i] = src[i];
    __syncthreads();
    for (int i = threadIdx.x; i < STAGE_FLOATS; i += blockDim.x) acc += stage[i];
  }
  for (int o = warpSize / 2; o > 0; o >>= 1)
    acc += __shfl_xor_sync(0xffffffffffffffffULL, acc, o);
  if (threadIdx.x % warpSize == 0) atomicAdd(&sums[blockIdx.x], acc);
}

void checksum(const float* in, float* sums, int blocks, int chunks, cudaStream_t s) {
  if (chunks <= 2) {
    staged_checksum<<<blocks, PIPE_THREADS, 2 * STAGE_BYTES, s>>>(in, sums, chunks, 2);
    return;
  }
  cudaFuncSetAttribute(staged_checksum, cudaFuncAttributeMaxDynamicSharedMemorySize, PIPE_STAGES * STAGE_BYTES);
  staged_checksum<<<blocks, PIPE_THREADS, PIPE_STAGES * STAGE_BYTES, s>>>(in, sums, chunks, PIPE_STAGES);
}
