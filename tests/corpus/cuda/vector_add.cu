// Runtime API basics: allocate, copy, launch, copy back.
#include "common.cuh"

__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int n = 1 << 16;
    float *a, *b, *c;
    float* h = (float*)std::malloc(n * sizeof(float));
    CHECK_CUDA(cudaMalloc(&a, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&b, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&c, n * sizeof(float)));
    for (int i = 0; i < n; ++i) h[i] = (float)i;
    CHECK_CUDA(cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice));
    for (int i = 0; i < n; ++i) h[i] = 2.0f * i;
    CHECK_CUDA(cudaMemcpy(b, h, n * sizeof(float), cudaMemcpyHostToDevice));
    add<<<(n + 255) / 256, 256>>>(a, b, c, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h, c, n * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0;
    bool ok = true;
    for (int i = 0; i < n; ++i) { sum += h[i]; ok = ok && h[i] == 3.0f * i; }
    std::printf("sum = %.1f\n", sum);
    CHECK_CUDA(cudaFree(a)); CHECK_CUDA(cudaFree(b)); CHECK_CUDA(cudaFree(c));
    std::free(h);
    return report("vector_add", ok);
}
