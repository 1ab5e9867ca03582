// cuda2rocm-options: --launch-syntax ggl
#include <hip/hip_runtime.h>
__global__ void a(int* p) { p[0] = 1; }
template <typename T, int N> __global__ void b(T* p) { p[N] = T(); }
namespace kern { __global__ void c(float x) {} }
void go(int* p, float* f, hipStream_t s) {
    hipLaunchKernelGGL(a, dim3(1), dim3(1), 0, 0, p);
    hipLaunchKernelGGL(a, dim3(dim3(2, 2)), dim3(dim3(8, 8)), 0, 0, p);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(b<float, 4>), dim3(1), dim3(32), 0, s, f);
    hipLaunchKernelGGL(kern::c, dim3(1), dim3(1), 0, 0, 1.0f);
    hipLaunchKernelGGL(a, dim3(1), dim3(1), 0, 0,  /* keep me */ p);
}
