// Pattern: driver API host code loading a module: cuInit, cuDeviceGet, cuCtxCreate, cuModuleLoad,
// cuModuleGetFunction, cuMemAlloc, cuLaunchKernel with a kernel-params array, cuGetErrorString.
#include <cuda.h>
#include <cstdio>

#define CU_CHECK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* m_; \
    cuGetErrorString(r_, &m_); printf("%s at %d\n", m_, __LINE__); return 1; } } while (0)

int main() {
    CU_CHECK(cuInit(0));
    CUdevice dev;
    CU_CHECK(cuDeviceGet(&dev, 0));
    char name[128];
    CU_CHECK(cuDeviceGetName(name, sizeof(name), dev));
    CUcontext ctx;
    CU_CHECK(cuCtxCreate(&ctx, 0, dev));
    CUmodule mod;
    CU_CHECK(cuModuleLoad(&mod, "kernels.bin"));
    CUfunction fn;
    CU_CHECK(cuModuleGetFunction(&fn, mod, "scale"));
    CUdeviceptr d;
    size_t n = 1024;
    CU_CHECK(cuMemAlloc(&d, n * sizeof(float)));
    float a = 2.f;
    void* params[] = {&d, &a, &n};
    CU_CHECK(cuLaunchKernel(fn, 4, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
    CU_CHECK(cuCtxSynchronize());
    CU_CHECK(cuMemFree(d));
    CU_CHECK(cuModuleUnload(mod));
    CU_CHECK(cuCtxDestroy(ctx));
    printf("%s\n", name);
    return 0;
}
