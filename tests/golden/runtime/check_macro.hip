/*
 * Error-check helpers. Header with an include guard: the HIP include goes after the guard.
 */
#ifndef CHECK_MACRO_CUH
#define CHECK_MACRO_CUH
#include "hip/hip_runtime.h"
#include <cstdio>
#define CUDA_CHECK(call)                                                    \
    do {                                                                    \
        hipError_t err_ = (call);                                          \
        if (err_ != hipSuccess) {                                          \
            fprintf(stderr, "CUDA error %s\n", hipGetErrorString(err_));   \
        }                                                                   \
    } while (0)
#endif  // CHECK_MACRO_CUH
