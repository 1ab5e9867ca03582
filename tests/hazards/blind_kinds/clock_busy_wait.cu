#include <cuda_runtime.h>

// keeps the stream busy for a number of SM clock cycles (used to test overlap)
__global__ void spin_kernel(long long cycles) {
  for (long long t0 = clock64(); clock64() - t0 < cycles;) { }
}

void spin(cudaStream_t stream, long long cycles) {
  spin_kernel<<<1, 1, 0, stream>>>(cycles);
}
