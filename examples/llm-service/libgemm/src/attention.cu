// Decode-time attention: one block per head keeps the K and V tiles in dynamic shared memory.
#include <cuda_runtime.h>

namespace libgemm {

constexpr int kHeadDim = 128;
constexpr int kTileRows = 96;

__global__ void decode_attention_kernel(const float* __restrict__ q, const float* __restrict__ k,
                                        const float* __restrict__ v, float* __restrict__ out, int seq_len) {
  extern __shared__ float smem[];  // K tile then V tile: 2 * 96 rows * 128 floats = 96 KB
  float* k_tile = smem;
  float* v_tile = smem + kTileRows * kHeadDim;
  const int head = blockIdx.x;
  const float* qh = q + head * kHeadDim;
  float acc = 0.f;
  float denom = 0.f;
  for (int start = 0; start < seq_len; start += kTileRows) {
    const int rows = min(kTileRows, seq_len - start);
    for (int i = threadIdx.x; i < rows * kHeadDim; i += blockDim.x) {
      const size_t off = (static_cast<size_t>(head) * seq_len + start) * kHeadDim + i;
      k_tile[i] = k[off];
      v_tile[i] = v[off];
    }
    __syncthreads();
    for (int r = 0; r < rows; ++r) {
      float s = 0.f;
      for (int d = 0; d < kHeadDim; ++d) s += qh[d] * k_tile[r * kHeadDim + d];
      const float w = __expf(s * rsqrtf(static_cast<float>(kHeadDim)));
      denom += w;
      if (threadIdx.x < kHeadDim) acc += w * v_tile[r * kHeadDim + threadIdx.x];
    }
    __syncthreads();
  }
  if (threadIdx.x < kHeadDim) out[head * kHeadDim + threadIdx.x] = acc / denom;
}

cudaError_t decode_attention(const float* q, const float* k, const float* v, float* out, int heads,
                             int seq_len, cudaStream_t stream) {
  cudaError_t err = cudaFuncSetAttribute(decode_attention_kernel,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);
  if (err != cudaSuccess) return err;
  decode_attention_kernel<<<heads, kHeadDim, 96 * 1024, stream>>>(q, k, v, out, seq_len);
  return cudaGetLastError();
}

}  // namespace libgemm
