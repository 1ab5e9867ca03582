#include <hip/hip_runtime.h>
namespace mylib { int cudaMalloc(void**, unsigned long); }
struct Wrap { int cudaMalloc; hipStream_t stream; };
int f(Wrap w, Wrap* pw, void** p) {
    return w.cudaMalloc + pw->cudaMalloc + mylib::cudaMalloc(p, 4) + ::hipMalloc(p, 4);
}
