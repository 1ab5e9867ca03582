#include "hip/hip_runtime.h"
#ifndef CUDA2ROCM_CUDA_VERSION_H
// cuda2rocm: CUDA version macros compared here; for hip-clang, those of the CUDA release assumed
#ifndef CUDA2ROCM_CUDA_VERSION
#if defined(__HIP__) && !defined(CUDA_VERSION)
#define CUDA2ROCM_CUDA_VERSION 12060
#else
#define CUDA2ROCM_CUDA_VERSION CUDA_VERSION
#endif
#endif
#endif  // CUDA2ROCM_CUDA_VERSION_H
#include <hip/hip_math_constants.h>
#if CUDA2ROCM_CUDA_VERSION >= 11000
__device__ float pi() { return HIP_PI_F; }
#endif
