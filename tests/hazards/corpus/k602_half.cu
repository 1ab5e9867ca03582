#include <cuda_fp16.h>
__global__ void k(__half* acc, const __half* x) { atomicAdd(&acc[0], x[threadIdx.x]); }
