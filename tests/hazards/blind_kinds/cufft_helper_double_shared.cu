#include <cufft.h>
#include <cufftXt.h>

// scales each double-complex input sample by a per-bin gain as cuFFT reads it
__device__ cufftDoubleComplex gain_load_z(void* in, size_t offset, void* info, void* shared) {
  cufftDoubleComplex v = static_cast<cufftDoubleComplex*>(in)[offset];
  double g = static_cast<const double*>(info)[offset];
  v.x *= g;
  v.y *= g;
  return v;
}
__device__ cufftCallbackLoadZ d_gain_load_z = gain_load_z;

template <typename CallbackPtr>
static cufftResult register_from_symbol(cufftHandle plan, const CallbackPtr& dev_sym,
                                        cufftXtCallbackType kind, void* info) {
  CallbackPtr host_fn;
  cudaMemcpyFromSymbol(&host_fn, dev_sym, sizeof(host_fn));
  void* infos[] = {info};
  return cufftXtSetCallback(plan, (void**)&host_fn, kind, infos);
}

cufftResult setup_gain_fft(cufftHandle plan, double* d_gain) {
  cufftResult r = register_from_symbol(plan, d_gain_load_z, CUFFT_CB_LD_COMPLEX_DOUBLE, d_gain);
  if (r != CUFFT_SUCCESS) return r;
  return cufftXtSetCallbackSharedSize(plan, CUFFT_CB_LD_COMPLEX_DOUBLE, 0);
}
