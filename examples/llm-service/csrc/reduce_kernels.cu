// Fused RMSNorm and sampling helpers for the llm-service extension.
// Every kernel here is launched from fused_ops.cpp on the caller's stream.
#include <cuda_runtime.h>

#include "fused_ops.h"

#define WARP_SIZE 32

__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    v += __shfl_down_sync(0xffffffff, v, offset);
  }
  return v;
}

__global__ void rms_norm_kernel(const float* __restrict__ x, const float* __restrict__ weight,
                                float* __restrict__ y, int cols, float eps) {
  __shared__ float partial[32];
  const int row = blockIdx.x;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / WARP_SIZE;
  const float* xr = x + static_cast<size_t>(row) * cols;

  float sum = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += xr[c] * xr[c];
  sum = warp_reduce_sum(sum);
  if (lane == 0) partial[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < blockDim.x / WARP_SIZE ? partial[lane] : 0.f;
    sum = warp_reduce_sum(sum);
    if (lane == 0) partial[0] = rsqrtf(sum / cols + eps);
  }
  __syncthreads();
  const float scale = partial[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    y[static_cast<size_t>(row) * cols + c] = xr[c] * scale * weight[c];
  }
}

// Counts positive logits so the sampler can size its candidate buffer.
__global__ void count_positive_kernel(const float* __restrict__ logits, int n, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool positive = i < n && logits[i] > 0.f;
  unsigned mask = __ballot_sync(0xffffffff, positive);
  if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(mask));
}

// A 64x64 float tile is 16 KB of shared memory: well inside the LDS of every target.
__global__ void transpose_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[64][64];
  const int x = blockIdx.x * 64 + threadIdx.x;
  for (int r = threadIdx.y; r < 64; r += blockDim.y) {
    const int y = blockIdx.y * 64 + r;
    if (x < n && y < n) tile[r][threadIdx.x] = in[static_cast<size_t>(y) * n + x];
  }
  __syncthreads();
  const int tx = blockIdx.y * 64 + threadIdx.x;
  for (int r = threadIdx.y; r < 64; r += blockDim.y) {
    const int ty = blockIdx.x * 64 + r;
    if (tx < n && ty < n) out[static_cast<size_t>(ty) * n + tx] = tile[threadIdx.x][r];
  }
}

int preferred_block_size(int device) {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return 256;
  return 8 * prop.warpSize;
}

void launch_rms_norm(const float* x, const float* weight, float* y, int rows, int cols, float eps,
                     cudaStream_t stream) {
  rms_norm_kernel<<<rows, 256, 0, stream>>>(x, weight, y, cols, eps);
}

void launch_count_positive(const float* logits, int n, int* count, cudaStream_t stream) {
  count_positive_kernel<<<(n + 255) / 256, 256, 0, stream>>>(logits, n, count);
}

void launch_transpose(const float* in, float* out, int n, cudaStream_t stream) {
  const dim3 grid((n + 63) / 64, (n + 63) / 64);
  transpose_kernel<<<grid, dim3(64, 4), 0, stream>>>(in, out, n);
}
