// cuda2rocm-options: --target-rocm 5.1
#include <hip/hip_runtime.h>
void alloc(void** p, hipStream_t s) { cudaMallocAsync(p, 64, s); }
