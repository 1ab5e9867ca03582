// C = A * B for row-major A (M x K), B (K x N); M, N, K are tile multiples.
#include <cuda_runtime.h>
#include "../include/gemm_config.h"

__global__ void __launch_bounds__(GEMM_THREADS)
sgemm_kernel(int M, int N, int K, const float* __restrict__ A,
             const float* __restrict__ B, float* __restrict__ C) {
  __shared__ float As[STAGES][BK][BM], Bs[STAGES][BK][BN];
  const int tx = threadIdx.x % (BN / TN);
  const int ty = threadIdx.x / (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int k0 = 0, s = 0; k0 < K; k0 += BK, s = (s + 1) % STAGES) {
    for (int i = threadIdx.x; i < BM * BK; i += GEMM_THREADS) {
      const int r = i / BK, c = i % BK;
      As[s][c][r] = A[(size_t)(row0 + r) * K + k0 + c];
    }
    for (int i = threadIdx.x; i < BK * BN; i += GEMM_THREADS) {
      const int r = i / BN, c = i % BN;
      Bs[s][r][c] = B[(size_t)(k0 + r) * N + col0 + c];
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
      for (int m = 0; m < TM; ++m) a[m] = As[s][kk][ty * TM + m];
      for (int n = 0; n < TN; ++n) b[n] = Bs[s][kk][tx * TN + n];
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n) acc[m][n] += a[m] * b[n];
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n)
      C[(size_t)(row0 + ty * TM + m) * N + col0 + tx * TN + n] = acc[m][n];
}

void sgemm(int M, int N, int K, const float* A, const float* B, float* C,
           cudaStream_t stream) {
  dim3 grid(N / BN, M / BM);
  sgemm_kernel<<<grid, GEMM_THREADS, 0, stream>>>(M, N, K, A, B, C);
}
