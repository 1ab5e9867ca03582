#include <hip/hip_runtime.h>
template <typename T> __global__ void b(T* p) { p[0] = T(); }
void go(float* f, hipStream_t s) { b<float><<<1, 32, 0, s>>>(f); }
