// cuda2rocm-options: --target-rocm 5.2
#include <cuda_runtime.h>
template <typename T, int N> __global__ void fill(T* p) { p[threadIdx.x] = T(N); }
__global__ void plain(float* p) { p[0] = 1.0f; }
typedef void (*kernel_t)(float*);
void configure(float* d, cudaStream_t s) {
    kernel_t chosen = d ? plain : fill<float, 1>;
    cudaFuncSetCacheConfig(plain, cudaFuncCachePreferL1);
    cudaFuncSetCacheConfig(fill<float, 4>, cudaFuncCachePreferShared);
    cudaFuncSetCacheConfig(chosen, cudaFuncCachePreferL1);
    cudaFuncSetCacheConfig((void*)plain, cudaFuncCachePreferL1);
    cudaFuncSetSharedMemConfig(&plain, cudaSharedMemBankSizeFourByte);
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, fill<double, 2>);
    cudaFuncSetAttribute(fill<float, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
    int blocks = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill<float, 4>, 128, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, chosen, 128, 0);
    void* args[] = {&d};
    cudaLaunchCooperativeKernel(fill<float, 4>, dim3(1), dim3(64), args);
    cudaLaunchCooperativeKernel(chosen, dim3(1), dim3(64), args, 0, s);
    cudaLaunchKernel(fill<float, 8>, dim3(1), dim3(64), args, 0, s);
    cudaKernelNodeParams params = {};
    params.func = reinterpret_cast<void*>(fill<float, 4>);
    params.func = (void*)chosen;
}
