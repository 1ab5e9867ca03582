#include <cuda_fp8.h>
__global__ void q250(__nv_fp8_e4m3* q, const float* x) { q[0] = __nv_fp8_e4m3(x[0]); }
