#include <nvrtc.h>
int build(const char* src) {
    nvrtcProgram prog;
    nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr);
    return nvrtcCompileProgram(prog, 0, nullptr);
}
