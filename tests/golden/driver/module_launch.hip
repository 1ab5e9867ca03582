#include <hip/hip_runtime.h>
hipError_t launch(const char* path, hipDeviceptr_t buf) {
    hipDevice_t dev;
    hipCtx_t ctx;
    hipModule_t mod;
    hipFunction_t fn;
    hipInit(0);
    hipDeviceGet(&dev, 0);
    hipCtxCreate(&ctx, 0, dev);
    hipModuleLoad(&mod, path);
    hipModuleGetFunction(&fn, mod, "kernel");
    void* args[] = {&buf};
    return hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, 0, args, nullptr);
}
