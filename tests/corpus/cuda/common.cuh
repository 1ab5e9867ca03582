// Shared helpers for the corpus programs: an error-check macro and a result check.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK_CUDA(call)                                                              \
    do {                                                                              \
        cudaError_t err_ = (call);                                                    \
        if (err_ != cudaSuccess) {                                                    \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                         __FILE__, __LINE__);                                         \
            std::exit(2);                                                             \
        }                                                                             \
    } while (0)

static inline int report(const char* name, bool ok) {
    std::printf("%s: %s\n", name, ok ? "PASSED" : "FAILED");
    return ok ? 0 : 1;
}
