#include <cuda_runtime.h>

// converts milliseconds into clock64() ticks of the current device
long long ms_to_cycles(float ms) {
  int dev = 0, khz = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
  return (long long)(ms * khz);
}
