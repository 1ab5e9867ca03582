#include <cuda.h>
CUresult launch(const char* path, CUdeviceptr buf) {
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    cuInit(0);
    cuDeviceGet(&dev, 0);
    cuCtxCreate(&ctx, 0, dev);
    cuModuleLoad(&mod, path);
    cuModuleGetFunction(&fn, mod, "kernel");
    void* args[] = {&buf};
    return cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, 0, args, nullptr);
}
