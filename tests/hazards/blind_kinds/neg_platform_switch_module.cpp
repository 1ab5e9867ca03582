#if defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
typedef hipModule_t module_t;
#else
#include <cuda.h>
typedef CUmodule module_t;
#endif

bool load_module(module_t* mod, const char* dir_prefix) {
#if defined(__HIP_PLATFORM_AMD__)
  (void)dir_prefix;
  return hipModuleLoad(mod, "kernels.hsaco") == hipSuccess;
#else
  (void)dir_prefix;
  return cuModuleLoad(mod, "kernels.ptx") == CUDA_SUCCESS;
#endif
}
