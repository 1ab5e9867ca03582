#include "hip/hip_runtime.h"
#include <hip/hip_fp16.h>
__global__ void h(const float* in, float* out) {
    __half a = __float2half(in[threadIdx.x]);
    out[threadIdx.x] = __half2float(__hadd(a, a));
}
