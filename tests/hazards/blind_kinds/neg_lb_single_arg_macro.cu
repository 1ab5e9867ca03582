#include <cuda_runtime.h>

#define KERNEL_LB(max_threads) __launch_bounds__(max_threads)
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))

template <int kThreads, typename T>
__global__ void KERNEL_LB(kThreads) col_sum(const T* x, T* out, int rows, int cols) {
  int c = blockIdx.x * kThreads + threadIdx.x;
  if (c >= cols) return;
  T acc = T(0);
  for (int r = 0; r < rows; ++r) acc += x[(size_t)r * cols + c];
  out[c] = acc;
}

void launch_col_sum(const float* x, float* out, int rows, int cols, cudaStream_t stream) {
  col_sum<512, float><<<DIV_UP(cols, 512), 512, 0, stream>>>(x, out, rows, cols);
}
