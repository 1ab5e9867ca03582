// cuda2rocm-options: --target-rocm 5.2
#include "hip/hip_runtime.h"
#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
__device__ hip_bfloat16 keep(hip_bfloat16 x) { return x; }
