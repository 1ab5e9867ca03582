#include <nvrtc.h>
#include <string>
#include <vector>

// sm is the caller's target, e.g. 90 for sm_90
std::vector<char> jit_to_cubin(const char* src, int sm) {
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, src, "fused.cu", 0, nullptr, nullptr);
  std::string arch = "--gpu-architecture=sm_" + std::to_string(sm);
  std::vector<const char*> opts{arch.c_str(), "-default-device"};
  nvrtcCompileProgram(prog, (int)opts.size(), opts.data());
  size_t n = 0;
  nvrtcGetCUBINSize(prog, &n);
  std::vector<char> cubin(n);
  nvrtcGetCUBIN(prog, cubin.data());
  nvrtcDestroyProgram(&prog);
  return cubin;
}
