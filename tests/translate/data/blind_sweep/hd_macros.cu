// Pattern: header-style portability macros: HOST_DEVICE defined from __CUDACC__, a __CUDA_ARCH__ split
// between device and host code paths, __CUDACC_VER_MAJOR__ feature checks and device_launch_parameters.h.
#include <cuda_runtime.h>
#include <device_launch_parameters.h>

#ifdef __CUDACC__
#define HOST_DEVICE __host__ __device__
#define FORCEINLINE __forceinline__
#else
#define HOST_DEVICE
#define FORCEINLINE inline
#endif

#if defined(__CUDACC__) && (__CUDACC_VER_MAJOR__ >= 11)
#define HAS_CUDA11 1
#else
#define HAS_CUDA11 0
#endif

HOST_DEVICE FORCEINLINE float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

HOST_DEVICE int where() {
#ifdef __CUDA_ARCH__
    return 1;
#else
    return 0;
#endif
}

__global__ void k(float* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = clampf(p[i], 0.f, 1.f) + (float)where() + HAS_CUDA11;
}

int main() {
    float* p;
    cudaMalloc(&p, 4096);
    k<<<4, 256>>>(p, 1024);
    return where();
}
