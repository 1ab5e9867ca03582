// Events: timing, cross-stream dependency with cudaStreamWaitEvent, cudaEventQuery.
#include "common.cuh"

__global__ void inc(int* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

int main() {
    const int n = 4096;
    int* d;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
    CHECK_CUDA(cudaMemset(d, 0, n * sizeof(int)));
    cudaStream_t a, b;
    CHECK_CUDA(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    CHECK_CUDA(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
    cudaEvent_t start, stop, done_a;
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
    CHECK_CUDA(cudaEventCreateWithFlags(&done_a, cudaEventDisableTiming));
    CHECK_CUDA(cudaEventRecord(start, a));
    for (int k = 0; k < 10; ++k) inc<<<n / 128, 128, 0, a>>>(d, n);
    CHECK_CUDA(cudaEventRecord(done_a, a));
    CHECK_CUDA(cudaStreamWaitEvent(b, done_a, 0));
    for (int k = 0; k < 5; ++k) inc<<<n / 128, 128, 0, b>>>(d, n);
    CHECK_CUDA(cudaEventRecord(stop, b));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = -1.0f;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    int h[n];
    CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    bool ok = cudaEventQuery(stop) == cudaSuccess && ms >= 0.0f;
    for (int i = 0; i < n; ++i) ok = ok && h[i] == 15;
    std::printf("value = %d, timing %s\n", h[0], ms >= 0.0f ? "measured" : "missing");
    cudaEventDestroy(start); cudaEventDestroy(stop); cudaEventDestroy(done_a);
    cudaStreamDestroy(a); cudaStreamDestroy(b); cudaFree(d);
    return report("events", ok);
}
