// __constant__ memory filled with cudaMemcpyToSymbol and read back with cudaMemcpyFromSymbol.
#include "common.cuh"

__constant__ float coeffs[8];
__device__ int calls;

__global__ void polynomial(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = 7; k >= 0; --k) acc = acc * x[i] + coeffs[k];
    y[i] = acc;
    atomicAdd(&calls, 1);
}

int main() {
    const int n = 512;
    float hc[8] = {1, 1, 0.5f, 0, 0, 0, 0, 0};  // 1 + x + x^2/2
    CHECK_CUDA(cudaMemcpyToSymbol(coeffs, hc, sizeof(hc)));
    int zero = 0;
    CHECK_CUDA(cudaMemcpyToSymbol(calls, &zero, sizeof zero));
    float hx[n], hy[n];
    for (int i = 0; i < n; ++i) hx[i] = (float)(i % 4);
    float *x, *y;
    CHECK_CUDA(cudaMalloc(&x, sizeof(hx)));
    CHECK_CUDA(cudaMalloc(&y, sizeof(hy)));
    CHECK_CUDA(cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice));
    polynomial<<<n / 128, 128>>>(x, y, n);
    CHECK_CUDA(cudaMemcpy(hy, y, sizeof(hy), cudaMemcpyDeviceToHost));
    int got_calls = 0;
    CHECK_CUDA(cudaMemcpyFromSymbol(&got_calls, calls, sizeof got_calls));
    bool ok = got_calls == n;
    for (int i = 0; i < n; ++i) ok = ok && hy[i] == 1 + hx[i] + 0.5f * hx[i] * hx[i];
    std::printf("y[3] = %.2f calls = %d\n", hy[3], got_calls);
    cudaFree(x); cudaFree(y);
    return report("constant_memory", ok);
}
