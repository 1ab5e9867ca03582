// Block sum with a warp-shuffle reduction written for 32-thread warps (fixable hazards: K101, K102, K201).
#include <cstdio>

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void block_sum(const float* in, float* out) {
  __shared__ float partial[32];
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x / 32;
  int nwarps = (blockDim.x + 31) / 32;
  float v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < nwarps ? partial[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
// --- host ---
int main() {
  const int blocks = 8, threads = 256, n = blocks * threads;
  float h[n], r[blocks];
  for (int i = 0; i < n; ++i) h[i] = (float)((i * 7) % 13);
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, blocks * sizeof(float));
  cudaMemcpy(din, h, n * sizeof(float), cudaMemcpyHostToDevice);
  block_sum<<<blocks, threads>>>(din, dout);
  cudaMemcpy(r, dout, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) printf("%d %.1f\n", b, r[b]);
  return cudaGetLastError() != cudaSuccess;
}
