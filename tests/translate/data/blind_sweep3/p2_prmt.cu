// Class 2: prmt.b32 byte permute (byte-swap / pack), no one-to-one HIP builtin.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned int byte_perm(unsigned int a, unsigned int b, unsigned int sel) {
  unsigned int r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sel));
  return r;
}

__global__ void bswap32(const unsigned int* in, unsigned int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = byte_perm(in[i], 0u, 0x0123u);
}

__global__ void pack_low_bytes(const unsigned int* a, const unsigned int* b, unsigned int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = byte_perm(a[i], b[i], 0x5140u);
}

void run_perm(const unsigned int* a, const unsigned int* b, unsigned int* o, int n) {
  bswap32<<<(n + 255) / 256, 256>>>(a, o, n);
  pack_low_bytes<<<(n + 255) / 256, 256>>>(a, b, o, n);
}
