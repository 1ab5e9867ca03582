// Half precision: __half / __half2 arithmetic, conversions, and an fp32-accumulated dot product.
#include "common.cuh"
#include <cuda_fp16.h>

__global__ void half_ops(const float* a, const float* b, float* sum, float* dot_partial, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half ha = __float2half(a[i]), hb = __float2half(b[i]);
    sum[i] = __half2float(__hadd(ha, hb));
    __half2 pair = __halves2half2(ha, hb);
    __half2 sq = __hmul2(pair, pair);
    dot_partial[i] = __low2float(sq) + __high2float(sq);
}

int main() {
    const int n = 512;
    float ha[n], hb[n], hs[n], hd[n];
    for (int i = 0; i < n; ++i) { ha[i] = 0.25f * (i % 16); hb[i] = 0.5f * (i % 8); }
    float *a, *b, *s, *d;
    CHECK_CUDA(cudaMalloc(&a, sizeof(ha)));
    CHECK_CUDA(cudaMalloc(&b, sizeof(hb)));
    CHECK_CUDA(cudaMalloc(&s, sizeof(hs)));
    CHECK_CUDA(cudaMalloc(&d, sizeof(hd)));
    CHECK_CUDA(cudaMemcpy(a, ha, sizeof(ha), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b, hb, sizeof(hb), cudaMemcpyHostToDevice));
    half_ops<<<n / 128, 128>>>(a, b, s, d, n);
    CHECK_CUDA(cudaMemcpy(hs, s, sizeof(hs), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hd, d, sizeof(hd), cudaMemcpyDeviceToHost));
    bool ok = true;
    double total = 0;
    for (int i = 0; i < n; ++i) {
        ok = ok && hs[i] == ha[i] + hb[i] && hd[i] == ha[i] * ha[i] + hb[i] * hb[i];
        total += hd[i];
    }
    std::printf("sum of squares = %.4f\n", total);
    cudaFree(a); cudaFree(b); cudaFree(s); cudaFree(d);
    return report("fp16_math", ok);
}
