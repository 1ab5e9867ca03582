// Pattern: __constant__ coefficient tables and __device__ globals filled with cudaMemcpyToSymbol /
// cudaMemcpyFromSymbol (with offset), cudaGetSymbolAddress and cudaGetSymbolSize; error-check macro.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__constant__ float c_taps[16];
__device__ int d_counter;

__global__ void fir(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.f;
    for (int k = 0; k < 16; ++k) acc += c_taps[k] * in[(i + k) % n];
    out[i] = acc;
    atomicAdd(&d_counter, 1);
}

int main() {
    float taps[16];
    for (int k = 0; k < 16; ++k) taps[k] = 1.f / 16;
    CHECK(cudaMemcpyToSymbol(c_taps, taps, 8 * sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c_taps, taps + 8, 8 * sizeof(float), 8 * sizeof(float), cudaMemcpyHostToDevice));
    int zero = 0;
    CHECK(cudaMemcpyToSymbolAsync(d_counter, &zero, sizeof(int), 0, cudaMemcpyHostToDevice, 0));
    int* p = nullptr;
    size_t sz = 0;
    CHECK(cudaGetSymbolAddress((void**)&p, d_counter));
    CHECK(cudaGetSymbolSize(&sz, c_taps));
    float *in, *out;
    CHECK(cudaMalloc(&in, 1024 * sizeof(float)));
    CHECK(cudaMalloc(&out, 1024 * sizeof(float)));
    fir<<<4, 256>>>(in, out, 1024);
    CHECK(cudaGetLastError());
    int count = 0;
    CHECK(cudaMemcpyFromSymbol(&count, d_counter, sizeof(int)));
    printf("%d %zu %p\n", count, sz, (void*)p);
    cudaFree(in); cudaFree(out);
    return 0;
}
