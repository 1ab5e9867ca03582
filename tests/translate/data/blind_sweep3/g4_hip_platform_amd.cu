// Class 4: #ifdef __HIP_PLATFORM_AMD__ ... #else ... #endif around wavefront-size dependent code.
#include <cstdio>
#include <cuda_runtime.h>

#ifdef __HIP_PLATFORM_AMD__
typedef unsigned long long lane_mask_t;
#define WAVE_SIZE 64
#define VOTE(p) __ballot(p)
#else
typedef unsigned int lane_mask_t;
#define WAVE_SIZE 32
#define VOTE(p) __ballot_sync(0xffffffffu, p)
#endif

__global__ void vote_count(const int* flags, int n, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  lane_mask_t m = VOTE(i < n && flags[i] != 0);
  if (threadIdx.x % WAVE_SIZE == 0) atomicAdd(out, __popcll((unsigned long long)m));
}

int main() {
  int *flags, *out;
  cudaMalloc(&flags, 1024 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(flags, 1, 1024 * sizeof(int));
  cudaMemset(out, 0, sizeof(int));
  vote_count<<<4, 256>>>(flags, 1024, out);
  int h = 0;
  cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("wave %d count %d\n", WAVE_SIZE, h);
  return 0;
}
