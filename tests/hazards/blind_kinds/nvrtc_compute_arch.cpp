#include <nvrtc.h>
#include <stdexcept>
#include <string>
#include <vector>

std::string jit_to_ptx(const std::string& src, const char* name) {
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, src.c_str(), name, 0, nullptr, nullptr);
  const char* opts[] = {"--std=c++17", "--gpu-architecture=compute_80", "--use_fast_math"};
  if (nvrtcCompileProgram(prog, 3, opts) != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&prog);
    throw std::runtime_error("nvrtc compile failed");
  }
  size_t n = 0;
  nvrtcGetPTXSize(prog, &n);
  std::string ptx(n, '\0');
  nvrtcGetPTX(prog, &ptx[0]);
  nvrtcDestroyProgram(&prog);
  return ptx;
}
