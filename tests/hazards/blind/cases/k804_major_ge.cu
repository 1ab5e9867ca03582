#include <cuda_runtime.h>
bool has_bf16(const cudaDeviceProp& prop) { return prop.major >= 8; }
