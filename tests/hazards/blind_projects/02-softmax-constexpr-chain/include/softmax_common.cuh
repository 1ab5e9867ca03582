#pragma once
#include <cuda_runtime.h>
#include <math_constants.h>
#include "arch.h"

namespace rt {

__device__ __forceinline__ float warp_max(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffffffffffULL, v, o));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffffffffffULL, v, o);
  return v;
}

}  // namespace rt
