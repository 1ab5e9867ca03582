#include <cuda.h>
#include <string>

CUmodule link_ptx(const std::string& ptx) {
  CUlinkState link;
  cuLinkCreate(0, nullptr, nullptr, &link);
  cuLinkAddData(link, CU_JIT_INPUT_PTX, (void*)ptx.c_str(), ptx.size() + 1, "user.ptx", 0, nullptr, nullptr);
  void* cubin = nullptr;
  size_t cubin_size = 0;
  cuLinkComplete(link, &cubin, &cubin_size);
  CUmodule mod;
  cuModuleLoadData(&mod, cubin);
  cuLinkDestroy(link);
  return mod;
}
