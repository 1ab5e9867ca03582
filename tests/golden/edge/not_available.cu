// cuda2rocm-options: --target-rocm 5.1
#include <cuda_runtime.h>
void alloc(void** p, cudaStream_t s) { cudaMallocAsync(p, 64, s); }
