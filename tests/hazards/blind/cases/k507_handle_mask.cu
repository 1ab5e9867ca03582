#include <cuda_runtime.h>
__host__ __device__ unsigned lo(cudaTextureObject_t t) { return (unsigned)(t & 0xFFFFFFFF); }
__host__ __device__ unsigned hi(cudaTextureObject_t t) { return (unsigned)(t >> 32); }
