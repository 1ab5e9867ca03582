// cuda2rocm-options: --launch-syntax ggl --target-rocm 5.2
#include <cuda_runtime.h>
#include <algorithm>
#define GRID(n) dim3(((n) + 255) / 256)
#define BLOCK 256
#define CFG 1, 64
#define CFG_STREAM(s) 1, 64, 0, s
#define LAUNCH(kern, g, b) kern<<<g, b>>>(nullptr, 0)
template <typename T, int N> struct vec { T v[N]; };
template <typename T, int N> struct holder { static const int value = N; };
template <typename T, int N> __global__ void kt(T* p, int n) {}
template <typename T> __global__ void k1(T* p) {}
__global__ void k(float* p, int n) {}
__global__ void none() {}
namespace ns { __global__ void kn(float* p) {} }
void f(float* p, int n, cudaStream_t s) {
    k<<<1, 2>>>(p, n);
    k<<<GRID(n), BLOCK>>>(p, n);
    k<<<dim3(n, 2), dim3(16, 16), 0>>>(p, n);
    k<<<n, 64, 128, s>>>(p, n);
    kt<float, 4><<<n, 64>>>(p, n);
    k1<float><<<n, 64, 0, s>>>(p);
    k1<vec<float, 2>><<<1, 64, 0, s>>>(nullptr);
    kt<vec<float, 2>, 4> <<< dim3(n), dim3(64), 0, s >>> (nullptr, n);
    ns::kn<<<1, 1>>>(p);
    k<<<(n + 255) / 256, 256>>>(p, n > 2 ? 1 : 0);
    k<<<std::max<int>(1, n / 64), 64>>>(p, n);
    k<<<holder<int, 2>::value, 64>>>(p, n);
    k<<<n > 0 ? n : 1, 64>>>(p, n);
    k<<<CFG>>>(p, n);
    kt<float, 4><<<CFG_STREAM(s)>>>(p, n);
    LAUNCH(k, 1, 64);
    k<<<1, 64, 0, s>>>(p,  // pointer
                       n);
    dim3 grid(n), block(64);
    k<<<grid, block, sizeof(float) * 64>>>(p, n);
    none<<<1, 1>>>();
    void (*fp)(float*, int) = k;
    fp<<<1, 64>>>(p, n);
}
