#include <cuda.h>

// generated at build time: bin2c --name scan_ptx scan.ptx > scan_ptx.h
extern "C" const unsigned char scan_ptx[];

CUfunction get_scan_kernel() {
  static CUmodule mod = nullptr;
  static CUfunction fn = nullptr;
  if (!fn) {
    cuModuleLoadData(&mod, scan_ptx);
    cuModuleGetFunction(&fn, mod, "block_scan");
  }
  return fn;
}
