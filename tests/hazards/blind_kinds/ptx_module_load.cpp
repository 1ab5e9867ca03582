#include <cuda.h>
#include <cstdio>

static CUmodule g_mod;
static CUfunction g_axpy;

bool load_kernels(const char* dir) {
  char path[512];
  std::snprintf(path, sizeof(path), "%s/axpy.ptx", dir);
  if (cuModuleLoad(&g_mod, path) != CUDA_SUCCESS) return false;
  return cuModuleGetFunction(&g_axpy, g_mod, "axpy") == CUDA_SUCCESS;
}
