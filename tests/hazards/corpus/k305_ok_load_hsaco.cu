#include <cuda.h>
CUfunction load(CUmodule* mod, const void* image) {
  CUfunction f;
  cuModuleLoadData(mod, image);
  cuModuleGetFunction(&f, *mod, "scale");
  return f;
}
