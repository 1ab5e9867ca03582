// Pinned and mapped host memory: cudaHostAlloc with cudaHostAllocMapped, device pointer to host memory.
#include "common.cuh"

__global__ void negate(float* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = -p[i];
}

int main() {
    const int n = 2048;
    float* host;
    CHECK_CUDA(cudaHostAlloc(&host, n * sizeof(float), cudaHostAllocMapped));
    for (int i = 0; i < n; ++i) host[i] = 0.5f * i;
    float* dev_view;
    CHECK_CUDA(cudaHostGetDevicePointer(&dev_view, host, 0));
    negate<<<n / 256, 256>>>(dev_view, n);
    CHECK_CUDA(cudaDeviceSynchronize());
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && host[i] == -0.5f * i;
    std::printf("host[10] = %.2f\n", host[10]);
    CHECK_CUDA(cudaFreeHost(host));
    return report("pinned_memory", ok);
}
