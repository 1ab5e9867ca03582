// Row-wise softmax: one block per row.
#include "softmax_common.cuh"

constexpr int kThreads = 128;

template <bool kIsMax>
__device__ float block_all_reduce(float v) {
  __shared__ float red[rt::kWarpSize];
  const int lane = threadIdx.x % rt::kWarpSize;
  const int warp = threadIdx.x / rt::kWarpSize;
  const int nwarps = blockDim.x / rt::kWarpSize;
  v = kIsMax ? rt::warp_max(v) : rt::warp_sum(v);
  if (lane == 0) red[warp] = v;
  __syncthreads();
  const float init = kIsMax ? -CUDART_INF_F : 0.0f;
  v = lane < nwarps ? red[lane] : init;
  v = kIsMax ? rt::warp_max(v) : rt::warp_sum(v);
  __syncthreads();
  return v;
}

__global__ void softmax_rows(const float* __restrict__ x,
                             float* __restrict__ y, int cols) {
  const float* row_in = x + (size_t)blockIdx.x * cols;
  float* row_out = y + (size_t)blockIdx.x * cols;
  float m = -CUDART_INF_F;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row_in[c]);
  m = block_all_reduce<true>(m);
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(row_in[c] - m);
  s = block_all_reduce<false>(s);
  const float inv = 1.0f / s;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    row_out[c] = __expf(row_in[c] - m) * inv;
}

void softmax(const float* x, float* y, int rows, int cols, cudaStream_t stream) {
  softmax_rows<<<rows, kThreads, 0, stream>>>(x, y, cols);
}
