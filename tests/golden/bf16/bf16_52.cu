// cuda2rocm-options: --target-rocm 5.2
#include <cuda_bf16.h>
__device__ __nv_bfloat16 keep(__nv_bfloat16 x) { return x; }
