#include <nvrtc.h>
#include <string>
#include <vector>

struct JitOptions {
  std::vector<std::string> flags;
  JitOptions() {
    flags.push_back("-std=c++17");
    flags.push_back("--gpu-architecture=compute_75");
    flags.push_back("-lineinfo");
  }
};

nvrtcResult compile_with(nvrtcProgram prog, const JitOptions& o) {
  std::vector<const char*> argv;
  for (const auto& f : o.flags) argv.push_back(f.c_str());
  return nvrtcCompileProgram(prog, (int)argv.size(), argv.data());
}
