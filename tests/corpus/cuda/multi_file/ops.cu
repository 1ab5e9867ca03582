// Kernels and their host wrappers, compiled as a separate translation unit.
#include "ops.cuh"

__global__ void normalise_kernel(float* d, int n, float lo, float hi) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = (clampf(d[i], lo, hi) - lo) / (hi - lo);
}

cudaError_t normalise(float* d, int n, float lo, float hi, cudaStream_t stream) {
    normalise_kernel<<<(n + 255) / 256, 256, 0, stream>>>(d, n, lo, hi);
    return cudaGetLastError();
}

Stats stats(const float* host, int n) {
    Stats s{host[0], host[0], 0.0f};
    double sum = 0;
    for (int i = 0; i < n; ++i) {
        s.min = host[i] < s.min ? host[i] : s.min;
        s.max = host[i] > s.max ? host[i] : s.max;
        sum += host[i];
    }
    s.mean = (float)(sum / n);
    return s;
}
