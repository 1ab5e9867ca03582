#include <hip/hip_fp8.h>
__global__ void k(__hip_fp8_e4m3_fnuz* q, const float* x) { q[0] = __hip_fp8_e4m3_fnuz(x[0]); }
