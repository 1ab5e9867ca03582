/*
 * Error-check helpers. Header with an include guard: the HIP include goes after the guard.
 */
#ifndef CHECK_MACRO_CUH
#define CHECK_MACRO_CUH
#include <cstdio>
#define CUDA_CHECK(call)                                                    \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "CUDA error %s\n", cudaGetErrorString(err_));   \
        }                                                                   \
    } while (0)
#endif  // CHECK_MACRO_CUH
