// bf16: __nv_bfloat16 / __nv_bfloat162 storage, conversions (__float2bfloat16, __bfloat162float,
// __floats2bfloat162_rn, __low2float, __high2float) and a dot product accumulated in float.
#include "common.cuh"
#include <cuda_bf16.h>
#include <cmath>

__global__ void dot(const __nv_bfloat162* a, const __nv_bfloat162* b, float* out, int pairs) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pairs) {
        float2 x = __bfloat1622float2(a[i]), y = __bfloat1622float2(b[i]);
        atomicAdd(out, x.x * y.x + x.y * y.y);
    }
}

__global__ void scale(__nv_bfloat16* v, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = __float2bfloat16(__bfloat162float(v[i]) * s);
}

int main() {
    const int pairs = 256, n = 2 * pairs;
    __nv_bfloat162 ha[pairs], hb[pairs];
    for (int i = 0; i < pairs; ++i) {
        ha[i] = __floats2bfloat162_rn(0.5f * (i % 8), 1.0f);
        hb[i] = __floats2bfloat162_rn(2.0f, 0.25f * (i % 4));
    }
    __nv_bfloat162 *a, *b;
    float* out;
    CHECK_CUDA(cudaMalloc(&a, sizeof ha));
    CHECK_CUDA(cudaMalloc(&b, sizeof hb));
    CHECK_CUDA(cudaMalloc(&out, sizeof(float)));
    CHECK_CUDA(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(out, 0, sizeof(float)));
    dot<<<pairs / 64, 64>>>(a, b, out, pairs);
    scale<<<n / 64, 64>>>(reinterpret_cast<__nv_bfloat16*>(a), 3.0f, n);
    CHECK_CUDA(cudaGetLastError());
    float result = 0;
    CHECK_CUDA(cudaMemcpy(&result, out, sizeof result, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost));
    double expected = 0;
    for (int i = 0; i < pairs; ++i) expected += 0.5 * (i % 8) * 2.0 + 1.0 * 0.25 * (i % 4);
    bool ok = std::fabs(result - expected) < 1e-3;
    for (int i = 0; i < pairs; ++i)  // 1.5 * (i % 8) and 3.0 are exact in bf16
        ok = ok && __low2float(ha[i]) == 1.5f * (i % 8) && __high2float(ha[i]) == 3.0f;
    std::printf("dot = %.1f (expected %.1f), scaled pair 7 = (%.1f, %.1f)\n", result, expected, __low2float(ha[7]),
                __high2float(ha[7]));
    cudaFree(a); cudaFree(b); cudaFree(out);
    return report("bf16_dot", ok);
}
