// Class 3: __reduce_add_sync / __reduce_max_sync warp reductions (sm_80+ intrinsics).
#include <cuda_runtime.h>

__global__ void count_positive(const int* v, int n, unsigned int* count, unsigned int* maxv) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int pos = (i < n && v[i] > 0) ? 1u : 0u;
  unsigned int val = (i < n && v[i] > 0) ? (unsigned int)v[i] : 0u;
  unsigned int warp_pos = __reduce_add_sync(0xffffffffu, pos);
  unsigned int warp_max = __reduce_max_sync(0xffffffffu, val);
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(count, warp_pos);
    atomicMax(maxv, warp_max);
  }
}

void run_count(const int* v, int n, unsigned int* count, unsigned int* maxv) {
  cudaMemset(count, 0, sizeof(unsigned int));
  cudaMemset(maxv, 0, sizeof(unsigned int));
  count_positive<<<(n + 255) / 256, 256>>>(v, n, count, maxv);
}
