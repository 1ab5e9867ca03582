// Streams: split work over 4 streams with async copies from pinned memory.
#include "common.cuh"

__global__ void square(float* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = d[i] * d[i];
}

int main() {
    const int streams = 4, chunk = 1 << 14, n = streams * chunk;
    float *h, *d;
    CHECK_CUDA(cudaMallocHost(&h, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 100);
    cudaStream_t s[streams];
    for (int k = 0; k < streams; ++k) CHECK_CUDA(cudaStreamCreate(&s[k]));
    for (int k = 0; k < streams; ++k) {
        int off = k * chunk;
        CHECK_CUDA(cudaMemcpyAsync(d + off, h + off, chunk * sizeof(float), cudaMemcpyHostToDevice, s[k]));
        square<<<chunk / 256, 256, 0, s[k]>>>(d + off, chunk);
        CHECK_CUDA(cudaMemcpyAsync(h + off, d + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
    }
    for (int k = 0; k < streams; ++k) CHECK_CUDA(cudaStreamSynchronize(s[k]));
    bool ok = true;
    double sum = 0;
    for (int i = 0; i < n; ++i) { float v = (float)(i % 100); ok = ok && h[i] == v * v; sum += h[i]; }
    std::printf("sum = %.0f\n", sum);
    for (int k = 0; k < streams; ++k) CHECK_CUDA(cudaStreamDestroy(s[k]));
    CHECK_CUDA(cudaFreeHost(h));
    CHECK_CUDA(cudaFree(d));
    return report("streams", ok);
}
