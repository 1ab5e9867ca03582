// Shared kernels header.
#pragma once
#include "hip/hip_runtime.h"
__device__ inline float square(float x) { return x * x; }
