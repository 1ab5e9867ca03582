__device__ void warp_reduce(volatile float* s, int tid) {
  s[tid] += s[tid + 16]; s[tid] += s[tid + 8]; s[tid] += s[tid + 4];
  s[tid] += s[tid + 2]; s[tid] += s[tid + 1];
}
__global__ void reduce(float* out, float* s) {
  int tid = threadIdx.x;
  if (tid < 32) warp_reduce(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}
