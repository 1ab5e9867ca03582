#include <nvrtc.h>
nvrtcResult compile(nvrtcProgram prog) {
  const char* opts[] = {"-std=c++17", "-default-device"};
  return nvrtcCompileProgram(prog, 2, opts);
}
