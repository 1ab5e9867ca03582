// NVTX annotations (header-only NVTX 3): nested ranges and a marker around kernel launches.
#include "common.cuh"
#include <nvtx3/nvToolsExt.h>

__global__ void scale(float* d, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] *= s;
}

int main() {
    const int n = 4096;
    float* d;
    nvtxRangePushA("setup");
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
    float h[n];
    for (int i = 0; i < n; ++i) h[i] = 1.0f;
    CHECK_CUDA(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
    nvtxRangePop();
    nvtxRangePushA("compute");
    for (int k = 0; k < 4; ++k) {
        nvtxMarkA("launch");
        scale<<<n / 256, 256>>>(d, 2.0f, n);
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    nvtxRangePop();
    CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    std::printf("h[0] = %.0f\n", h[0]);
    cudaFree(d);
    return report("nvtx_ranges", h[0] == 16.0f && h[n - 1] == 16.0f);
}
