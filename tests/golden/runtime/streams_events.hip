#include <hip/hip_runtime.h>
__global__ void scale(float* x, float s) { x[threadIdx.x] *= s; }
float time_it(float* d, float* h, hipStream_t stream) {
    hipEvent_t start, stop;
    hipEventCreate(&start);
    hipEventCreate(&stop);
    hipEventRecord(start, stream);
    hipMemcpyAsync(d, h, 256 * sizeof(float), hipMemcpyHostToDevice, stream);
    scale<<<1, 256, 0, stream>>>(d, 2.0f);
    hipEventRecord(stop, stream);
    hipStreamSynchronize(stream);
    float ms = 0.f;
    hipEventElapsedTime(&ms, start, stop);
    hipEventDestroy(start);
    hipEventDestroy(stop);
    return ms;
}
