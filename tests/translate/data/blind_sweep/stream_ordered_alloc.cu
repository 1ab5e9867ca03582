// Pattern: stream-ordered allocation with cudaMallocAsync / cudaFreeAsync, the default memory pool's
// release threshold (cudaDeviceGetDefaultMemPool + cudaMemPoolSetAttribute), as in recent inference code.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void fill(int* p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

int main() {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    uint64_t threshold = UINT64_MAX;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
    for (int it = 0; it < 10; ++it) {
        int* p = nullptr;
        cudaMallocAsync((void**)&p, 1 << 20, s);
        fill<<<1024, 256, 0, s>>>(p, 1 << 18, it);
        cudaFreeAsync(p, s);
    }
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    return 0;
}
