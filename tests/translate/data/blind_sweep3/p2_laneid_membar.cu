// Class 2: %laneid read and membar.gl fence via inline PTX (producer/consumer flag).
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned int lane_id() {
  unsigned int id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ void fence_gpu() {
  asm volatile("membar.gl;" ::: "memory");
}

__global__ void publish(int* data, volatile int* flag, unsigned int* lanes) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  lanes[gid] = lane_id();
  if (threadIdx.x == 0) {
    data[blockIdx.x] = blockIdx.x * 7;
    fence_gpu();
    flag[blockIdx.x] = 1;
  }
}

int main() {
  int *data, *flag; unsigned int* lanes;
  cudaMalloc(&data, 8 * sizeof(int));
  cudaMalloc(&flag, 8 * sizeof(int));
  cudaMalloc(&lanes, 8 * 64 * sizeof(unsigned int));
  publish<<<8, 64>>>(data, flag, lanes);
  cudaDeviceSynchronize();
  cudaFree(data); cudaFree(flag); cudaFree(lanes);
  return 0;
}
