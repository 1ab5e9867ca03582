#include <cufftXt.h>
__device__ cufftReal scale_in(void* in, size_t i, void* data, void* shared) { return ((cufftReal*)in)[i] * 2.0f; }
__device__ cufftCallbackLoadR d_scale = scale_in;
void attach(cufftHandle plan) {
  cufftCallbackLoadR h;
  cudaMemcpyFromSymbol(&h, d_scale, sizeof(h));
  cufftXtSetCallback(plan, (void**)&h, CUFFT_CB_LD_REAL, nullptr);
}
