// Class 6: cudaFuncSetAttribute on a templated kernel: carveout + max dynamic smem, then launch.
#include <cuda_runtime.h>

template <int TILE>
__global__ void row_scale(float* m, const float* s, int rows, int cols) {
  extern __shared__ float row[];
  int r = blockIdx.x;
  for (int c = threadIdx.x; c < cols && c < TILE; c += blockDim.x) row[c] = m[r * cols + c] * s[r];
  __syncthreads();
  for (int c = threadIdx.x; c < cols && c < TILE; c += blockDim.x) m[r * cols + c] = row[c];
}

cudaError_t run_row_scale(float* m, const float* s, int rows, int cols, cudaStream_t st) {
  const int tile = 16384;
  size_t smem = tile * sizeof(float);
  cudaError_t e = cudaFuncSetAttribute(row_scale<tile>,
                                       cudaFuncAttributePreferredSharedMemoryCarveout, 100);
  if (e != cudaSuccess) return e;
  e = cudaFuncSetAttribute(row_scale<tile>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           (int)smem);
  if (e != cudaSuccess) return e;
  row_scale<tile><<<rows, 256, smem, st>>>(m, s, rows, cols);
  return cudaGetLastError();
}
