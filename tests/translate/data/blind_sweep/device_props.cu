// Pattern: device enumeration printing cudaDeviceProp fields, cudaDriverGetVersion /
// cudaRuntimeGetVersion, cudaSetDevice, cudaMemGetInfo and compute capability checks.
#include <cuda_runtime.h>
#include <cstdio>

int main() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return 1;
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp p;
        cudaGetDeviceProperties(&p, d);
        printf("%d %s cc %d.%d sms %d warp %d smem/blk %zu regs/blk %d maxthr %d\n", d, p.name, p.major,
               p.minor, p.multiProcessorCount, p.warpSize, p.sharedMemPerBlock, p.regsPerBlock,
               p.maxThreadsPerBlock);
        printf("clock %d memclk %d bus %d l2 %d global %zu const %zu grid %d %d %d\n", p.clockRate,
               p.memoryClockRate, p.memoryBusWidth, p.l2CacheSize, p.totalGlobalMem, p.totalConstMem,
               p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
        printf("ecc %d concurrent %d managed %d pci %d:%d\n", p.ECCEnabled, p.concurrentKernels,
               p.managedMemory, p.pciBusID, p.pciDeviceID);
    }
    cudaSetDevice(0);
    size_t freeB = 0, totalB = 0;
    cudaMemGetInfo(&freeB, &totalB);
    int major = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
    printf("%zu/%zu %d %d %d\n", freeB, totalB, drv, rt, major);
    return 0;
}
