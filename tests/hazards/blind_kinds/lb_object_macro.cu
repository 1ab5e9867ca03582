#include <cuda_runtime.h>

#define GATHER_THREADS 128
#define GATHER_MIN_BLOCKS 2
#define GATHER_BOUNDS __launch_bounds__(GATHER_THREADS, GATHER_MIN_BLOCKS)

__global__ void GATHER_BOUNDS gather_rows(const float* src, const int* idx, float* dst, int cols) {
  int r = blockIdx.x;
  for (int c = threadIdx.x; c < cols; c += GATHER_THREADS)
    dst[(size_t)r * cols + c] = src[(size_t)idx[r] * cols + c];
}
