#include <cuda_runtime.h>
__global__ void scale(float* x, float s) { x[threadIdx.x] *= s; }
float time_it(float* d, float* h, cudaStream_t stream) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, stream);
    cudaMemcpyAsync(d, h, 256 * sizeof(float), cudaMemcpyHostToDevice, stream);
    scale<<<1, 256, 0, stream>>>(d, 2.0f);
    cudaEventRecord(stop, stream);
    cudaStreamSynchronize(stream);
    float ms = 0.f;
    cudaEventElapsedTime(&ms, start, stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms;
}
