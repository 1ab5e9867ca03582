// Class 6: cudaFuncSetAttribute on a kernel (no cast) to opt into large dynamic shared memory.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void tile_transpose(const float* in, float* out, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tile[threadIdx.x] = in[i];
  __syncthreads();
  if (i < n) out[i] = tile[blockDim.x - 1 - threadIdx.x];
}

int main() {
  const int n = 1 << 12, threads = 256;
  size_t smem = 80 * 1024;
  cudaError_t st = cudaFuncSetAttribute(tile_transpose, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)smem);
  printf("set max dyn smem: %s\n", cudaGetErrorString(st));
  cudaFuncSetCacheConfig(tile_transpose, cudaFuncCachePreferShared);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, tile_transpose);
  printf("regs %d, max threads %d\n", attr.numRegs, attr.maxThreadsPerBlock);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float)); cudaMalloc(&out, n * sizeof(float));
  tile_transpose<<<n / threads, threads, smem>>>(in, out, n);
  printf("launch: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(in); cudaFree(out);
  return 0;
}
