#include <cufftXt.h>

__device__ void store_magnitude(void* out, size_t offset, cufftComplex v, void* info, void* shared) {
  static_cast<float*>(info)[offset] = sqrtf(v.x * v.x + v.y * v.y);
}
__device__ cufftCallbackStoreC d_store_mag = store_magnitude;

void install_magnitude_store(cufftHandle plan, float* d_mag) {
  cufftCallbackStoreC host_ptr;
  cudaMemcpyFromSymbol(&host_ptr, d_store_mag, sizeof(host_ptr));
  void* info[] = {d_mag};
  cufftXtSetCallback(plan, (void**)&host_ptr, CUFFT_CB_ST_COMPLEX, info);
}
