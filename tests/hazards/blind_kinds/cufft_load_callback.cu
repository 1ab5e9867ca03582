#include <cufft.h>
#include <cufftXt.h>

// applies a window while cuFFT loads its input
__device__ cufftComplex hann_load(void* in, size_t offset, void* info, void* shared) {
  const float* window = static_cast<const float*>(info);
  cufftComplex v = static_cast<cufftComplex*>(in)[offset];
  float w = window[offset % 1024];
  v.x *= w;
  v.y *= w;
  return v;
}
__device__ cufftCallbackLoadC d_hann_load = hann_load;

cufftResult attach_window(cufftHandle plan, float* d_window) {
  cufftCallbackLoadC h_cb;
  cudaMemcpyFromSymbol(&h_cb, d_hann_load, sizeof(h_cb));
  return cufftXtSetCallback(plan, (void**)&h_cb, CUFFT_CB_LD_COMPLEX, (void**)&d_window);
}
