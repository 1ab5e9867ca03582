#include <cuda_runtime.h>
#include "kernel_bounds.h"

template <int kThreads, typename T>
__global__ void BOUNDED_KERNEL(kThreads, ROW_SCALE_MIN_BLOCKS) row_scale(T* x, const T* scale, int cols) {
  T s = scale[blockIdx.x];
  for (int c = threadIdx.x; c < cols; c += kThreads)
    x[(size_t)blockIdx.x * cols + c] *= s;
}

void launch_row_scale(float* x, const float* scale, int rows, int cols, cudaStream_t stream) {
  row_scale<256, float><<<rows, 256, 0, stream>>>(x, scale, cols);
}
