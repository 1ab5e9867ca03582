#include <cutlass/numeric_types.h>
__global__ void quant(cutlass::float_e4m3_t* q, const float* x) { q[threadIdx.x] = cutlass::float_e4m3_t(x[threadIdx.x]); }
