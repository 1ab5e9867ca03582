// cuda2rocm-options: --launch-syntax ggl --target-rocm 5.2
#include <hip/hip_runtime.h>
#include <algorithm>
#define GRID(n) dim3(((n) + 255) / 256)
#define BLOCK 256
#define CFG 1, 64
#define CFG_STREAM(s) 1, 64, 0, s
#define LAUNCH(kern, g, b) hipLaunchKernelGGL(HIP_KERNEL_NAME(kern), dim3(g), dim3(b), 0, 0, nullptr, 0)
template <typename T, int N> struct vec { T v[N]; };
template <typename T, int N> struct holder { static const int value = N; };
template <typename T, int N> __global__ void kt(T* p, int n) {}
template <typename T> __global__ void k1(T* p) {}
__global__ void k(float* p, int n) {}
__global__ void none() {}
namespace ns { __global__ void kn(float* p) {} }
void f(float* p, int n, hipStream_t s) {
    hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, 0, p, n);
    hipLaunchKernelGGL(k, dim3(GRID(n)), dim3(BLOCK), 0, 0, p, n);
    hipLaunchKernelGGL(k, dim3(dim3(n, 2)), dim3(dim3(16, 16)), 0, 0, p, n);
    hipLaunchKernelGGL(k, dim3(n), dim3(64), 128, s, p, n);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(kt<float, 4>), dim3(n), dim3(64), 0, 0, p, n);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(k1<float>), dim3(n), dim3(64), 0, s, p);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(k1<vec<float, 2>>), dim3(1), dim3(64), 0, s, nullptr);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(kt<vec<float, 2>, 4> ), dim3( dim3(n)), dim3(dim3(64)), 0, s , nullptr, n);
    hipLaunchKernelGGL(ns::kn, dim3(1), dim3(1), 0, 0, p);
    hipLaunchKernelGGL(k, dim3((n + 255) / 256), dim3(256), 0, 0, p, n > 2 ? 1 : 0);
    hipLaunchKernelGGL(k, dim3(std::max<int>(1, n / 64)), dim3(64), 0, 0, p, n);
    hipLaunchKernelGGL(k, dim3(holder<int, 2>::value), dim3(64), 0, 0, p, n);
    hipLaunchKernelGGL(k, dim3(n > 0 ? n : 1), dim3(64), 0, 0, p, n);
    hipLaunchKernelGGL(k, CFG, 0, 0, p, n);
    kt<float, 4><<<CFG_STREAM(s)>>>(p, n);
    LAUNCH(k, 1, 64);
    hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, s, p,  // pointer
                       n);
    dim3 grid(n), block(64);
    hipLaunchKernelGGL(k, dim3(grid), dim3(block), sizeof(float) * 64, 0, p, n);
    hipLaunchKernelGGL(none, dim3(1), dim3(1), 0, 0);
    void (*fp)(float*, int) = k;
    hipLaunchKernelGGL(fp, dim3(1), dim3(64), 0, 0, p, n);
}
