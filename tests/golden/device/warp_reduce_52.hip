// cuda2rocm-options: --target-rocm 5.2
#include <hip/hip_runtime.h>
__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    unsigned any = __any(v > 0.f);
    return v + any + __shfl_xor(v, 1);
}
