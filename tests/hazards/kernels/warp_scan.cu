// Inclusive warp scan with width 32 and a 32-lane loop bound (fixable hazards: K101, K102, K104, K201).
#include <cstdio>

__global__ void scan(const int* in, int* out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = tid % 32;
  int v = in[tid];
  for (int d = 1; d < 32; d <<= 1) {
    int n = __shfl_up_sync(0xffffffff, v, d, 32);
    if (lane >= d) v += n;
  }
  out[tid] = v + __shfl_sync(0xffffffff, v, 0, 32);
}
// --- host ---
int main() {
  const int blocks = 2, threads = 128, n = blocks * threads;
  int h[n], r[n];
  for (int i = 0; i < n; ++i) h[i] = (i * 5) % 9 - 3;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
  scan<<<blocks, threads>>>(din, dout);
  cudaMemcpy(r, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) printf("%d %d\n", i, r[i]);
  return cudaGetLastError() != cudaSuccess;
}
