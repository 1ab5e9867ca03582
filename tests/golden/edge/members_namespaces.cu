#include <cuda_runtime.h>
namespace mylib { int cudaMalloc(void**, unsigned long); }
struct Wrap { int cudaMalloc; cudaStream_t stream; };
int f(Wrap w, Wrap* pw, void** p) {
    return w.cudaMalloc + pw->cudaMalloc + mylib::cudaMalloc(p, 4) + ::cudaMalloc(p, 4);
}
