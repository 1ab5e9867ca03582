#include <cuda_runtime.h>
int sms(const cudaDeviceProp& prop) { return prop.multiProcessorCount + prop.l2CacheSize; }
size_t smem(const cudaDeviceProp& prop) { return prop.sharedMemPerBlock; }
