#include <nvrtc.h>
#include <string>
nvrtcResult compile(nvrtcProgram prog, int cc) {
  std::string arch = "--gpu-architecture=sm_" + std::to_string(cc);
  const char* opts[] = {arch.c_str(), "-std=c++17"};
  return nvrtcCompileProgram(prog, 2, opts);
}
