__device__ void tail(volatile float* s, int tid) {
  s[tid] += s[tid + 1];
}
