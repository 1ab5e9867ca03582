#include <cuda_runtime.h>
__host__ __device__ uint2 enc(cudaTextureObject_t t) {
  return make_uint2((unsigned)(t & 0xFFFFFFFF), (unsigned)(t >> 32));
}
__host__ __device__ cudaTextureObject_t dec(uint2 v) {
  return ((cudaTextureObject_t)v.x) | ((cudaTextureObject_t)v.y << 32);
}
