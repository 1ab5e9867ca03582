#include <hip/hiprtc.h>
int build(const char* src) {
    hiprtcProgram prog;
    hiprtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr);
    return hiprtcCompileProgram(prog, 0, nullptr);
}
