#include "hip/hip_runtime.h"
#include <hip/hip_math_constants.h>
#if CUDA_VERSION >= 11000
__device__ float pi() { return HIP_PI_F; }
#endif
