#include <cuda_runtime.h>
bool sm80_plus(const cudaDeviceProp& p) {
  int cc = p.major * 10 + p.minor;
  return cc >= 80;
}
