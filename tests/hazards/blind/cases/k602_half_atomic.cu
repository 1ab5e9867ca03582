#include <cuda_fp16.h>
__global__ void acc_half(__half* acc, const __half* v) {
  atomicAdd(&acc[0], v[threadIdx.x]);
}
