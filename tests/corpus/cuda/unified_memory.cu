// Unified memory: cudaMallocManaged, host and device touch the same pointer, prefetch hint.
#include "common.cuh"

__global__ void triple(int* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= 3;
}

int main() {
    const int n = 10000;
    int* p;
    CHECK_CUDA(cudaMallocManaged(&p, n * sizeof(int)));
    for (int i = 0; i < n; ++i) p[i] = i;
    int device = 0;
    CHECK_CUDA(cudaGetDevice(&device));
    int concurrent = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
    triple<<<(n + 255) / 256, 256>>>(p, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    long long sum = 0;
    bool ok = true;
    for (int i = 0; i < n; ++i) { sum += p[i]; ok = ok && p[i] == 3 * i; }
    std::printf("sum = %lld\n", sum);
    CHECK_CUDA(cudaFree(p));
    return report("unified_memory", ok);
}
