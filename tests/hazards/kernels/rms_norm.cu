// RMSNorm with a warp-size macro, a per-warp array and a shuffle helper (the shape of the bundled
// examples/llm-service/csrc/reduce_kernels.cu; fixable hazards: K101, K102, K103, K106, K201, fixed as one group).
#include <cstdio>

#define WARP_SIZE 32

__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void rms_norm_kernel(const float* x, const float* weight, float* y, int cols, float eps) {
  __shared__ float partial[32];
  const int row = blockIdx.x;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / WARP_SIZE;
  const float* xr = x + row * cols;
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
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[row * cols + c] = xr[c] * scale * weight[c];
}
// --- host ---
int main() {
  const int rows = 4, cols = 300, n = rows * cols;
  float hx[n], hw[cols], hy[n];
  for (int i = 0; i < n; ++i) hx[i] = (float)((i * 37) % 23) - 11.0f;
  for (int c = 0; c < cols; ++c) hw[c] = 0.5f + (float)(c % 7) / 7.0f;
  float *dx, *dw, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dw, cols * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dw, hw, cols * sizeof(float), cudaMemcpyHostToDevice);
  rms_norm_kernel<<<rows, 256>>>(dx, dw, dy, cols, 1e-5f);
  cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 13) printf("%d %.5f\n", i, hy[i]);
  return cudaGetLastError() != cudaSuccess;
}
