#include <cuda_bf16.h>
__global__ void k(__nv_bfloat16* q, const float* x) { q[0] = __float2bfloat16(x[0]); }
