#include <hip/hip_runtime.h>
__global__ void inc(int* p) { atomicAdd(p, 1); }
int managed(int dev) {
    int* p;
    hipMallocManaged(&p, sizeof(int));
    *p = 0;
    hipMemPrefetchAsync(p, sizeof(int), dev, 0);
    inc<<<4, 64>>>(p);
    hipDeviceSynchronize();
    int v = *p;
    hipFree(p);
    return v;
}
