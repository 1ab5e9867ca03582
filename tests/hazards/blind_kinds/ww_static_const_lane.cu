#include <cuda_runtime.h>

static const int WARPSZ = 32;

__device__ int count_matches(const int* keys, int key) {
  int lane = threadIdx.x & (WARPSZ - 1);
  int hit = keys[lane] == key;
  for (int o = warpSize / 2; o > 0; o >>= 1)
    hit += __shfl_down_sync(__activemask(), hit, o);
  return hit;
}

__global__ void probe(const int* table, const int* queries, int* counts) {
  int q = blockIdx.x;
  int c = count_matches(table + q * warpSize, queries[q]);
  if ((threadIdx.x & (warpSize - 1)) == 0) counts[q] = c;
}
