#include <cuda_runtime.h>
__global__ void inc(int* p) { atomicAdd(p, 1); }
int managed(int dev) {
    int* p;
    cudaMallocManaged(&p, sizeof(int));
    *p = 0;
    cudaMemPrefetchAsync(p, sizeof(int), dev, 0);
    inc<<<4, 64>>>(p);
    cudaDeviceSynchronize();
    int v = *p;
    cudaFree(p);
    return v;
}
