// Class 3: cudaOccupancyMaxPotentialBlockSizeVariableSMem with a block-size -> smem functor.
#include <cstdio>
#include <cuda_runtime.h>

struct SmemPerBlock {
  __host__ __device__ size_t operator()(int block) const { return block * sizeof(float) * 2; }
};

__global__ void block_sum(const float* in, float* out, int n) {
  extern __shared__ float buf[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int k = 0; k < blockDim.x; ++k) s += buf[k];
    out[blockIdx.x] = s;
  }
}

int main() {
  int min_grid = 0, block = 0;
  cudaError_t st = cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, block_sum,
                                                                   SmemPerBlock(), 1024);
  printf("grid %d block %d (%s)\n", min_grid, block, cudaGetErrorString(st));
  return st == cudaSuccess ? 0 : 1;
}
