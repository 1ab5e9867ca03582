// Definedness tests translate; version and architecture numbers are kept (C2R-A110).
#include <cuda_runtime.h>
#ifdef __CUDA_RUNTIME_H__
inline int device_count() { int n = 0; cudaGetDeviceCount(&n); return n; }
#endif
#if defined(__DRIVER_TYPES_H__) && !defined(__CUDA_RUNTIME_API_H__)
#error "runtime API header missing"
#endif
#if CUDA_VERSION >= 11000 && defined(CUDART_VERSION)
#define HAS_GRAPHS 1
#endif
#if __CUDACC_VER_MAJOR__ < 11
#error "needs CUDA 11"
#endif
__device__ int arch_path() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return 80;
#elif __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}
