#include <cuda_runtime.h>
__device__ int arch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    return 70;
#else
    return 0;
#endif
}
#ifdef __CUDACC__
const char* compiler = "__CUDACC__ build";
#endif
