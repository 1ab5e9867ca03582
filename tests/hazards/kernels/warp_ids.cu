// Warp ids and lane ids via shifts and masks, warp-wide max (fixable hazards: K101, K102, K201).
#include <cstdio>

__global__ void warp_max(const int* in, int* out, int* ids) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int wid = threadIdx.x >> 5;
  int lane = threadIdx.x & 0x1f;
  int v = in[tid];
  for (int mask = 16; mask > 0; mask /= 2) v = max(v, __shfl_xor_sync(0xffffffff, v, mask));
  ids[tid] = wid * 100 + lane;
  if (lane == 0) out[blockIdx.x * (blockDim.x >> 5) + wid] = v;
}
// --- host ---
int main() {
  const int blocks = 3, threads = 192, n = blocks * threads, warps = n / 32;
  int h[n], r[warps], ids[n];
  for (int i = 0; i < n; ++i) h[i] = (i * 131) % 257;
  int *din, *dout, *dids;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, warps * sizeof(int));
  cudaMalloc(&dids, n * sizeof(int));
  cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
  warp_max<<<blocks, threads>>>(din, dout, dids);
  cudaMemcpy(r, dout, warps * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(ids, dids, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int w = 0; w < warps; ++w) printf("w %d %d\n", w, r[w]);
  for (int i = 0; i < n; ++i) printf("i %d %d\n", i, ids[i]);
  return cudaGetLastError() != cudaSuccess;
}
