__device__ void warp_tail(volatile float* s, int tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}
__global__ void reduce6(float* g) {
  __shared__ float s[512];
  int tid = threadIdx.x;
  s[tid] = g[blockIdx.x * 512 + tid];
  __syncthreads();
  for (int st = blockDim.x / 2; st > 32; st >>= 1) {
    if (tid < st) s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid < 32) warp_tail(s, tid);
  if (tid == 0) g[blockIdx.x] = s[0];
}
