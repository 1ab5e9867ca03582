#include <cuda_fp16.h>
__global__ void acc_float(float* acc, const __half* v) {
  atomicAdd(&acc[0], __half2float(v[threadIdx.x]));
}
