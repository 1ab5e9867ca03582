// Pattern: assorted runtime calls from utility code: limits, stream queries, IPC handles, profiler
// ranges, cudaLaunchKernel with an args array, PCI bus id, device flags, stream-attached managed memory.
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <cstdio>

__global__ void k(int* p, int v) { p[threadIdx.x] = v; }

int main() {
    cudaDeviceSetLimit(cudaLimitStackSize, 4096);
    cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20);
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 26);
    size_t heap = 0;
    cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
    cudaStream_t s;
    cudaStreamCreate(&s);
    int prio = 0;
    cudaStreamGetPriority(s, &prio);
    unsigned flags = 0;
    cudaGetDeviceFlags(&flags);
    char bus[32];
    cudaDeviceGetPCIBusId(bus, sizeof(bus), 0);
    int* p;
    cudaMalloc(&p, 1024);
    cudaIpcMemHandle_t h;
    cudaIpcGetMemHandle(&h, p);
    cudaProfilerStart();
    int v = 7;
    void* args[] = {&p, &v};
    cudaLaunchKernel((const void*)k, dim3(1), dim3(256), args, 0, s);
    cudaProfilerStop();
    int* m;
    cudaMallocManaged(&m, 1024);
    cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachSingle);
    if (cudaStreamQuery(s) == cudaErrorNotReady) cudaStreamSynchronize(s);
    cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeFourByte);
    printf("%zu %d %u %s\n", heap, prio, flags, bus);
    return 0;
}
