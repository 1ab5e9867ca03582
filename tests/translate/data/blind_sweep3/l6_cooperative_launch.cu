// Class 6: cooperative launch with a void** argument array and grid-wide sync.
#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void two_phase(float* data, float* block_sums, int n) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.0f;
  if (threadIdx.x == 0) block_sums[blockIdx.x] = 0.0f;
  grid.sync();
  if (i < n) atomicAdd(&block_sums[blockIdx.x], data[i]);
}

int main() {
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (!coop) { printf("no cooperative launch\n"); return 0; }
  const int threads = 256;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, two_phase, threads, 0);
  int blocks = sms * per_sm, n = blocks * threads;
  float *data, *sums;
  cudaMalloc(&data, n * sizeof(float)); cudaMalloc(&sums, blocks * sizeof(float));
  void* args[] = {(void*)&data, (void*)&sums, (void*)&n};
  cudaError_t st = cudaLaunchCooperativeKernel((void*)two_phase, dim3(blocks), dim3(threads),
                                               args, 0, 0);
  printf("coop launch: %s\n", cudaGetErrorString(st));
  cudaDeviceSynchronize();
  cudaFree(data); cudaFree(sums);
  return 0;
}
