#include <cuda_runtime.h>
int l2_persist(const cudaDeviceProp& prop) { return prop.persistingL2CacheMaxSize; }
int window(const cudaDeviceProp& prop) { return prop.accessPolicyMaxWindowSize; }
