#include "rownorm.cuh"

void rownorm(const float* x, float* y, int rows, int cols, cudaStream_t stream) {
  if (cols < WIDE_ROW_MIN_COLS)
    rownorm_kernel<float><<<rows, ROW_THREADS, 0, stream>>>(x, y, cols);
  else
    rownorm_kernel<float><<<rows, WIDE_ROW_THREADS, 0, stream>>>(x, y, cols);
}
