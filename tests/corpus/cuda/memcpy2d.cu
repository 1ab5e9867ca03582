// Pitched allocations: cudaMallocPitch, cudaMemcpy2D, cudaMemset2D.
#include "common.cuh"

__global__ void add_row_index(float* d, size_t pitch, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float* row = (float*)((char*)d + y * pitch);
        row[x] += (float)y;
    }
}

int main() {
    const int w = 100, h = 60;
    float host[h][w];
    float* d;
    size_t pitch = 0;
    CHECK_CUDA(cudaMallocPitch(&d, &pitch, w * sizeof(float), h));
    CHECK_CUDA(cudaMemset2D(d, pitch, 0, w * sizeof(float), h));
    add_row_index<<<dim3((w + 63) / 64, h), 64>>>(d, pitch, w, h);
    CHECK_CUDA(cudaMemcpy2D(host, w * sizeof(float), d, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    bool ok = pitch >= w * sizeof(float);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) ok = ok && host[y][x] == (float)y;
    std::printf("host[59][99] = %.0f\n", host[59][99]);
    cudaFree(d);
    return report("memcpy2d", ok);
}
