#include <cuda_runtime.h>
#include <math_constants.h>
#include "../include/attn_config.cuh"

__global__ void attn_fwd(const float* __restrict__ Q, const float* __restrict__ K,
                         const float* __restrict__ V, float* __restrict__ O,
                         int seq_len, float scale) {
  extern __shared__ float smem[];
  float* sQ = smem;
  float* sK = sQ + kBlockM * kHeadDim;
  float* sV = sK + kBlockN * kHeadDim;
  const size_t head = (size_t)blockIdx.y * seq_len * kHeadDim;
  const int q = blockIdx.x * kBlockM + threadIdx.x;
  for (int d = 0; d < kHeadDim; ++d)
    sQ[threadIdx.x * kHeadDim + d] = Q[head + (size_t)q * kHeadDim + d];
  float m = -CUDART_INF_F, l = 0.0f, acc[kHeadDim] = {};
  for (int n0 = 0; n0 < seq_len; n0 += kBlockN) {
    __syncthreads();
    for (int i = threadIdx.x; i < kBlockN * kHeadDim; i += kThreads) {
      sK[i] = K[head + (size_t)n0 * kHeadDim + i];
      sV[i] = V[head + (size_t)n0 * kHeadDim + i];
    }
    __syncthreads();
    for (int j = 0; j < kBlockN; ++j) {
      float s = 0.0f;
      for (int d = 0; d < kHeadDim; ++d) s += sQ[threadIdx.x * kHeadDim + d] * sK[j * kHeadDim + d];
      s *= scale;
      const float m_new = fmaxf(m, s), corr = __expf(m - m_new), p = __expf(s - m_new);
      l = l * corr + p;
      for (int d = 0; d < kHeadDim; ++d) acc[d] = acc[d] * corr + p * sV[j * kHeadDim + d];
      m = m_new;
    }
  }
  for (int d = 0; d < kHeadDim; ++d) O[head + (size_t)q * kHeadDim + d] = acc[d] / l;
}

void attention_forward(const float* Q, const float* K, const float* V, float* O,
                       int heads, int seq_len, cudaStream_t stream) {
  cudaFuncSetAttribute(attn_fwd, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  dim3 grid(seq_len / kBlockM, heads);
  const float scale = rsqrtf((float)kHeadDim);
  attn_fwd<<<grid, kThreads, kSmemBytes, stream>>>(Q, K, V, O, seq_len, scale);
}
