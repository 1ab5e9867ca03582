// cuda2rocm-options: --launch-syntax ggl
#include <cuda_runtime.h>
__global__ void a(int* p) { p[0] = 1; }
template <typename T, int N> __global__ void b(T* p) { p[N] = T(); }
namespace kern { __global__ void c(float x) {} }
void go(int* p, float* f, cudaStream_t s) {
    a<<<1, 1>>>(p);
    a<<<dim3(2, 2), dim3(8, 8), 0>>>(p);
    b<float, 4><<<1, 32, 0, s>>>(f);
    kern::c<<<1, 1>>>(1.0f);
    a<<<1, 1>>>( /* keep me */ p);
}
