#include <cuda_fp16.h>
__global__ void k(__half2* acc, __half2 v) { atomicAdd(acc, v); }
