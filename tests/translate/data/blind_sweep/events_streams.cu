// Pattern: multi-stream pipeline with pinned memory, cudaMemcpyAsync chunks, events for timing,
// cudaStreamWaitEvent, cudaEventQuery polling, stream priorities and cudaLaunchHostFunc callback.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void work(float* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = d[i] * 2.f + 1.f;
}

static void CUDART_CB done(void* user) { printf("chunk %d done\n", *(int*)user); }

int main() {
    const int N = 1 << 20, S = 4, C = N / S;
    float *h, *d;
    cudaMallocHost(&h, N * sizeof(float));
    cudaMalloc(&d, N * sizeof(float));
    int lo, hi;
    cudaDeviceGetStreamPriorityRange(&lo, &hi);
    cudaStream_t st[S];
    int ids[S];
    for (int s = 0; s < S; ++s) cudaStreamCreateWithPriority(&st[s], cudaStreamNonBlocking, hi);
    cudaEvent_t t0, t1, ready;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventCreateWithFlags(&ready, cudaEventDisableTiming);
    cudaEventRecord(t0, 0);
    for (int s = 0; s < S; ++s) {
        ids[s] = s;
        cudaMemcpyAsync(d + s * C, h + s * C, C * sizeof(float), cudaMemcpyHostToDevice, st[s]);
        work<<<C / 256, 256, 0, st[s]>>>(d + s * C, C);
        cudaMemcpyAsync(h + s * C, d + s * C, C * sizeof(float), cudaMemcpyDeviceToHost, st[s]);
        cudaLaunchHostFunc(st[s], done, &ids[s]);
    }
    cudaEventRecord(ready, st[0]);
    cudaStreamWaitEvent(st[1], ready, 0);
    cudaEventRecord(t1, 0);
    while (cudaEventQuery(t1) == cudaErrorNotReady) {}
    float ms = 0.f;
    cudaEventElapsedTime(&ms, t0, t1);
    printf("%.3f ms\n", ms);
    for (int s = 0; s < S; ++s) cudaStreamDestroy(st[s]);
    cudaEventDestroy(t0); cudaEventDestroy(t1); cudaEventDestroy(ready);
    cudaFreeHost(h); cudaFree(d);
    return 0;
}
