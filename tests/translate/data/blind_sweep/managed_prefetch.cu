// Pattern: unified memory with cudaMallocManaged, cudaMemAdvise, cudaMemPrefetchAsync to the device and
// back to cudaCpuDeviceId, cudaDeviceGetAttribute(cudaDevAttrConcurrentManagedAccess).
#include <cuda_runtime.h>
#include <cstdio>

__global__ void inc(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1;
}

int main() {
    int dev = 0, concurrent = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, dev);
    const int n = 1 << 20;
    int* a = nullptr;
    cudaMallocManaged(&a, n * sizeof(int), cudaMemAttachGlobal);
    for (int i = 0; i < n; ++i) a[i] = i;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    if (concurrent) {
        cudaMemAdvise(a, n * sizeof(int), cudaMemAdviseSetPreferredLocation, dev);
        cudaMemAdvise(a, n * sizeof(int), cudaMemAdviseSetReadMostly, dev);
        cudaMemPrefetchAsync(a, n * sizeof(int), dev, s);
    }
    inc<<<(n + 255) / 256, 256, 0, s>>>(a, n);
    if (concurrent) cudaMemPrefetchAsync(a, n * sizeof(int), cudaCpuDeviceId, s);
    cudaStreamSynchronize(s);
    printf("%d\n", a[10]);
    cudaStreamDestroy(s);
    cudaFree(a);
    return 0;
}
