// Votes per warp with ballots kept in 32 bits (fixable hazards: K201, K202, K203, K101).
#include <cstdio>

__global__ void votes(const int* in, int* count, int* first) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = __ballot_sync(0xffffffff, in[tid] > 0);
  int lane = threadIdx.x % 32;
  if (lane == 0) {
    count[tid / 32] = __popc(b);
    first[tid / 32] = __ffs(b) - 1;
  }
}
// --- host ---
int main() {
  const int blocks = 4, threads = 128, n = blocks * threads, warps = n / 32;
  int h[n], c[warps], f[warps];
  for (int i = 0; i < n; ++i) h[i] = ((i * 37) % 11) > 6 ? 1 : 0;
  int *din, *dc, *df;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dc, warps * sizeof(int));
  cudaMalloc(&df, warps * sizeof(int));
  cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
  votes<<<blocks, threads>>>(din, dc, df);
  cudaMemcpy(c, dc, warps * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(f, df, warps * sizeof(int), cudaMemcpyDeviceToHost);
  for (int w = 0; w < warps; ++w) printf("%d %d %d\n", w, c[w], f[w]);
  return cudaGetLastError() != cudaSuccess;
}
