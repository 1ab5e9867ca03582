#include <cuda_bf16.h>
__global__ void k(__nv_bfloat16* acc, __nv_bfloat16 v) { atomicAdd(acc + blockIdx.x, v); }
