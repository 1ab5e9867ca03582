#include <cuda_fp16.h>
__global__ void acc_half2(__half2* acc, __half2 v) {
  atomicAdd(acc + blockIdx.x, v);
}
