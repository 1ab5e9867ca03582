#include <cuda_fp8.h>
__global__ void quant2(__nv_fp8_e5m2* q, const float* x) { q[0] = __nv_fp8_e5m2(x[0]); }
