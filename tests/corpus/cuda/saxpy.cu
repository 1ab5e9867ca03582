// SAXPY with a grid-stride loop and cudaMemset.
#include "common.cuh"

__global__ void saxpy(int n, float a, const float* x, float* y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

__global__ void fill(float* p, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

int main() {
    const int n = 100000;
    float *x, *y;
    CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&y, n * sizeof(float)));
    CHECK_CUDA(cudaMemset(y, 0, n * sizeof(float)));
    fill<<<(n + 127) / 128, 128>>>(x, 1.5f, n);
    saxpy<<<64, 128>>>(n, 2.0f, x, y);
    saxpy<<<64, 128>>>(n, 2.0f, x, y);
    float* h = new float[n];
    CHECK_CUDA(cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && h[i] == 6.0f;
    std::printf("y[0] = %.2f y[n-1] = %.2f\n", h[0], h[n - 1]);
    delete[] h;
    cudaFree(x); cudaFree(y);
    return report("saxpy", ok);
}
