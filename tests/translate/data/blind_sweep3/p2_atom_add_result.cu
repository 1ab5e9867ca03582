// Class 2: atom.global.add with its old value used (work-queue ticket).
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned int fetch_add(unsigned int* p, unsigned int v) {
  unsigned int old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ unsigned long long fetch_add64(unsigned long long* p,
                                                          unsigned long long v) {
  unsigned long long old;
  asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
  return old;
}

__global__ void compact(const int* in, int n, int* out, unsigned int* count,
                        unsigned long long* bytes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    unsigned int slot = fetch_add(count, 1u);
    out[slot] = in[i];
    fetch_add64(bytes, sizeof(int));
  }
}

void run_compact(const int* in, int n, int* out, unsigned int* count, unsigned long long* b) {
  compact<<<(n + 127) / 128, 128>>>(in, n, out, count, b);
}
