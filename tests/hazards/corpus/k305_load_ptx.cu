#include <cuda.h>
CUfunction load(CUmodule* mod) {
  CUfunction f;
  cuModuleLoad(mod, "build/kernels.ptx");
  cuModuleGetFunction(&f, *mod, "scale");
  return f;
}
