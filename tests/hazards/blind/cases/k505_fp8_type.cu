#include <cuda_fp8.h>
__global__ void quant(__nv_fp8_e4m3* q, const float* x) {
  q[threadIdx.x] = __nv_fp8_e4m3(x[threadIdx.x]);
}
