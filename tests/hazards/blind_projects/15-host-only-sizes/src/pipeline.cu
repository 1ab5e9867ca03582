// Host-side staging pipeline: copy a batch in, scale it, copy it back.
#include <cuda_runtime.h>
#include <vector>
#include "../include/config.hpp"

static float g_host_stage[cfg::kStageRows][cfg::kStageCols];

__global__ void scale_rows(float* __restrict__ data, const float* __restrict__ coef, int cols) {
  __shared__ float s_coef[cfg::kLaunchThreads];
  s_coef[threadIdx.x] = coef[threadIdx.x];
  __syncthreads();
  float* row = data + (size_t)blockIdx.x * cols;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    row[c] *= s_coef[c % cfg::kLaunchThreads];
}

int run_pipeline(const float* coef_dev, cudaStream_t s) {
  std::vector<float> host_batch((size_t)cfg::kMaxBatch * cfg::kStageCols, 1.0f);
  float* pinned = nullptr;
  float* dev = nullptr;
  if (cudaMallocHost(&pinned, cfg::kStageBytes) != cudaSuccess) return -1;
  cudaMalloc(&dev, host_batch.size() * sizeof(float));
  for (int r = 0; r < cfg::kStageRows; ++r)
    for (int c = 0; c < cfg::kStageCols; ++c) g_host_stage[r][c] = host_batch[r * cfg::kStageCols + c];
  cudaMemcpyAsync(dev, host_batch.data(), host_batch.size() * sizeof(float),
                  cudaMemcpyHostToDevice, s);
  cudaMemsetAsync(dev, 0, cfg::kStageBytes, s);
  scale_rows<<<cfg::kMaxBatch, cfg::kLaunchThreads, 0, s>>>(dev, coef_dev, cfg::kStageCols);
  cudaMemcpyAsync(pinned, dev, cfg::kStageBytes, cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
  cudaFree(dev);
  cudaFreeHost(pinned);
  return 0;
}
