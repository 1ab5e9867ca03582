#include <hip/hip_runtime.h>
__device__ int arch() {
#if defined(__HIP_DEVICE_COMPILE__) && __CUDA_ARCH__ >= 700
    return 70;
#else
    return 0;
#endif
}
#ifdef __HIPCC__
const char* compiler = "__CUDACC__ build";
#endif
