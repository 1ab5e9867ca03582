#include <cuda_runtime.h>
#include <cstdint>

int64_t seconds_to_cycles(double seconds) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  return static_cast<int64_t>(seconds * prop.clockRate * 1000.0);
}
