// Driver API: cuInit, primary context, cuMemAlloc / cuMemcpy*, launching a runtime kernel.
#include <cuda.h>
#include "common.cuh"

#define CHECK_CU(call)                                                       \
    do {                                                                     \
        CUresult r_ = (call);                                                \
        if (r_ != CUDA_SUCCESS) {                                            \
            const char* msg = nullptr;                                       \
            cuGetErrorString(r_, &msg);                                      \
            std::fprintf(stderr, "driver error %s at line %d\n", msg, __LINE__); \
            return 2;                                                        \
        }                                                                    \
    } while (0)

__global__ void twice(int* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] *= 2;
}

int main() {
    CHECK_CU(cuInit(0));
    CUdevice dev;
    CHECK_CU(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK_CU(cuCtxSetCurrent(ctx));
    const int n = 500;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i;
    CUdeviceptr d;
    CHECK_CU(cuMemAlloc(&d, sizeof(h)));
    CHECK_CU(cuMemcpyHtoD(d, h, sizeof(h)));
    twice<<<(n + 127) / 128, 128>>>((int*)d, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CU(cuMemcpyDtoH(h, d, sizeof(h)));
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && h[i] == 2 * i;
    std::printf("h[499] = %d\n", h[499]);
    CHECK_CU(cuMemFree(d));
    CHECK_CU(cuDevicePrimaryCtxRelease(dev));
    return report("driver_api", ok);
}
