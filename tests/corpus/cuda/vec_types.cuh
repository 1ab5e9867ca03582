// Header-only device helpers on CUDA vector types (float4, int2, make_*).
#pragma once
#include <cuda_runtime.h>

__device__ __forceinline__ float4 axpy4(float a, float4 x, float4 y) {
    return make_float4(a * x.x + y.x, a * x.y + y.y, a * x.z + y.z, a * x.w + y.w);
}

__device__ __forceinline__ float dot4(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
