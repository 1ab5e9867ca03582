__global__ void k(float* acc, const float* x) { atomicAdd(&acc[0], x[threadIdx.x]); }
