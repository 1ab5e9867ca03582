// cuda2rocm-options: --target-rocm 5.2
#include <hip/hip_runtime.h>
template <typename T, int N> __global__ void fill(T* p) { p[threadIdx.x] = T(N); }
__global__ void plain(float* p) { p[0] = 1.0f; }
typedef void (*kernel_t)(float*);
void configure(float* d, hipStream_t s) {
    kernel_t chosen = d ? plain : fill<float, 1>;
    hipFuncSetCacheConfig(reinterpret_cast<const void*>(plain), hipFuncCachePreferL1);
    hipFuncSetCacheConfig(reinterpret_cast<const void*>(fill<float, 4>), hipFuncCachePreferShared);
    hipFuncSetCacheConfig(reinterpret_cast<const void*>(chosen), hipFuncCachePreferL1);
    hipFuncSetCacheConfig((void*)plain, hipFuncCachePreferL1);
    hipFuncSetSharedMemConfig(reinterpret_cast<const void*>(&plain), hipSharedMemBankSizeFourByte);
    hipFuncAttributes attr;
    hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(fill<double, 2>));
    hipFuncSetAttribute(reinterpret_cast<const void*>(fill<float, 4>), hipFuncAttributeMaxDynamicSharedMemorySize, 1024);
    int blocks = 0;
    hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill<float, 4>, 128, 0);
    hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, chosen, 128, 0);
    void* args[] = {&d};
    hipLaunchCooperativeKernel(reinterpret_cast<const void*>(fill<float, 4>), dim3(1), dim3(64), args, 0, 0);
    hipLaunchCooperativeKernel(reinterpret_cast<const void*>(chosen), dim3(1), dim3(64), args, 0, s);
    hipLaunchKernel(reinterpret_cast<const void*>(fill<float, 8>), dim3(1), dim3(64), args, 0, s);
    hipKernelNodeParams params = {};
    params.func = reinterpret_cast<void*>(fill<float, 4>);
    params.func = (void*)chosen;
}
