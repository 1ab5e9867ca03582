// Class 5: #define FULL_MASK 0xffffffff used in __ballot_sync for stream compaction offsets.
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

__global__ void warp_compact(const float* in, int n, float thresh, float* out, int* counter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  bool keep = i < n && in[i] > thresh;
  unsigned int mask = __ballot_sync(FULL_MASK, keep);
  int base = 0;
  if (lane == 0) base = atomicAdd(counter, __popc(mask));
  base = __shfl_sync(FULL_MASK, base, 0);
  if (keep) out[base + __popc(mask & ((1u << lane) - 1u))] = in[i];
}

void run_compact(const float* in, int n, float t, float* out, int* counter) {
  cudaMemset(counter, 0, sizeof(int));
  warp_compact<<<(n + 255) / 256, 256>>>(in, n, t, out, counter);
}
