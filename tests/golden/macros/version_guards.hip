// Definedness tests translate; version and architecture numbers are kept (C2R-A110).
#ifndef CUDA2ROCM_CUDA_VERSION_H
// cuda2rocm: CUDA version macros compared here; for hip-clang, those of the CUDA release assumed
#ifndef CUDA2ROCM_CUDA_VERSION
#if defined(__HIP__) && !defined(CUDA_VERSION)
#define CUDA2ROCM_CUDA_VERSION 12060
#else
#define CUDA2ROCM_CUDA_VERSION CUDA_VERSION
#endif
#endif
#ifndef CUDA2ROCM_CUDACC_VER_MAJOR
#if defined(__HIP__) && !defined(__CUDACC_VER_MAJOR__)
#define CUDA2ROCM_CUDACC_VER_MAJOR 12
#else
#define CUDA2ROCM_CUDACC_VER_MAJOR __CUDACC_VER_MAJOR__
#endif
#endif
#endif  // CUDA2ROCM_CUDA_VERSION_H
#include <hip/hip_runtime.h>
#ifdef HIP_INCLUDE_HIP_HIP_RUNTIME_H
inline int device_count() { int n = 0; hipGetDeviceCount(&n); return n; }
#endif
#if defined(HIP_INCLUDE_HIP_DRIVER_TYPES_H) && !defined(HIP_INCLUDE_HIP_HIP_RUNTIME_API_H)
#error "runtime API header missing"
#endif
#if CUDA2ROCM_CUDA_VERSION >= 11000 && defined(HIP_VERSION)
#define HAS_GRAPHS 1
#endif
#if CUDA2ROCM_CUDACC_VER_MAJOR < 11
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
