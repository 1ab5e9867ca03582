// Definedness tests translate; version and architecture numbers are kept (C2R-A110).
#include <hip/hip_runtime.h>
#ifdef HIP_INCLUDE_HIP_HIP_RUNTIME_H
inline int device_count() { int n = 0; hipGetDeviceCount(&n); return n; }
#endif
#if defined(HIP_INCLUDE_HIP_DRIVER_TYPES_H) && !defined(HIP_INCLUDE_HIP_HIP_RUNTIME_API_H)
#error "runtime API header missing"
#endif
#if CUDA_VERSION >= 11000 && defined(HIP_VERSION)
#define HAS_GRAPHS 1
#endif
#if __CUDACC_VER_MAJOR__ < 11
#error "needs CUDA 11"
#endif
__device__ int arch_path() {
#if defined(__HIP_DEVICE_COMPILE__) && __CUDA_ARCH__ >= 800
  return 80;
#elif __HIP_DEVICE_COMPILE__
  return 1;
#else
  return 0;
#endif
}
