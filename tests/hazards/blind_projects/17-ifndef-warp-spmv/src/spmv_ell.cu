// y = A * x for an ELL matrix, one thread per row; empty warps exit early.
#include "../include/ell.cuh"

__global__ void spmv_ell_kernel(EllMatrix A, const float* __restrict__ x,
                                float* __restrict__ y, int* __restrict__ warp_live) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & (WARP_SIZE - 1);
  const int warp = row / WARP_SIZE;
  const bool has_work = row < A.rows && A.cols[row] >= 0;
  if (!__any_sync(FULL_MASK, has_work)) {
    if (lane == 0) warp_live[warp] = 0;
    return;
  }
  if (lane == 0) warp_live[warp] = 1;
  if (row >= A.rows) return;
  float sum = 0.0f;
  for (int k = 0; k < A.width; ++k) {
    const int c = A.cols[(size_t)k * A.rows + row];
    if (c < 0) break;
    sum += A.vals[(size_t)k * A.rows + row] * x[c];
  }
  y[row] = sum;
}

void spmv_ell(const EllMatrix& A, const float* x, float* y, int* warp_live, cudaStream_t s) {
  const int blocks = (A.rows + SPMV_BLOCK - 1) / SPMV_BLOCK;
  spmv_ell_kernel<<<blocks, SPMV_BLOCK, 0, s>>>(A, x, y, warp_live);
}
