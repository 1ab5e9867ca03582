#include <cuda_runtime.h>

// backs off between polls of a work queue
__device__ void backoff(int rounds) {
#if defined(__HIP_PLATFORM_AMD__)
  for (int r = 0; r < rounds; ++r) __builtin_amdgcn_s_sleep(8);
#else
  long long until = clock64() + 100LL * rounds;
  while (clock64() < until) { }
#endif
}

__global__ void poll_queue(const int* head, int* seen, int rounds) {
  backoff(rounds);
  if (threadIdx.x == 0) seen[blockIdx.x] = *head;
}
