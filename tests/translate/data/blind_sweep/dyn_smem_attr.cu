// Pattern: kernels needing >48 KiB dynamic shared memory opt in with cudaFuncSetAttribute
// (cudaFuncAttributeMaxDynamicSharedMemorySize), query cudaFuncGetAttributes, cudaFuncSetCacheConfig.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void bigTile(float* out, int n) {
    extern __shared__ float buf[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) buf[i] = (float)i;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = buf[n - 1];
}

int main() {
    int n = 16 * 1024;  // 64 KiB of floats
    size_t bytes = n * sizeof(float);
    cudaFuncSetAttribute(bigTile, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    cudaFuncSetCacheConfig(bigTile, cudaFuncCachePreferShared);
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, bigTile);
    printf("regs %d smem %zu maxthr %d\n", attr.numRegs, attr.sharedSizeBytes, attr.maxThreadsPerBlock);
    int maxOptin = 0;
    cudaDeviceGetAttribute(&maxOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    float* out;
    cudaMalloc(&out, 64 * sizeof(float));
    bigTile<<<64, 256, bytes>>>(out, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s %d\n", cudaGetErrorString(e), maxOptin);
    return 0;
}
