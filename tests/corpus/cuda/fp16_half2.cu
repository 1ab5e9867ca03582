// fp16: __half2 arithmetic (__hadd2, __hmul2, __hfma2), __half comparisons, conversions (__float2half_rn,
// __half2float, __floats2half2_rn, __low2half, __high2half) and a horizontal reduction in float.
#include "common.cuh"
#include <cuda_fp16.h>
#include <cmath>

__global__ void fma_pairs(const __half2* a, const __half2* b, __half2* c, int pairs) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pairs) c[i] = __hfma2(a[i], b[i], __hadd2(c[i], __hmul2(a[i], __float2half2_rn(0.5f))));
}

__global__ void count_greater(const __half2* c, __half limit, int* count, int pairs) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pairs) {
        int k = __hgt(__low2half(c[i]), limit) + __hgt(__high2half(c[i]), limit);
        atomicAdd(count, k);
    }
}

int main() {
    const int pairs = 512;
    __half2 ha[pairs], hb[pairs], hc[pairs];
    for (int i = 0; i < pairs; ++i) {
        ha[i] = __floats2half2_rn((float)(i % 16), 2.0f);
        hb[i] = __floats2half2_rn(0.5f, (float)(i % 4));
        hc[i] = __floats2half2_rn(1.0f, -1.0f);
    }
    __half2 *a, *b, *c;
    int* count;
    CHECK_CUDA(cudaMalloc(&a, sizeof ha));
    CHECK_CUDA(cudaMalloc(&b, sizeof hb));
    CHECK_CUDA(cudaMalloc(&c, sizeof hc));
    CHECK_CUDA(cudaMalloc(&count, sizeof(int)));
    CHECK_CUDA(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(count, 0, sizeof(int)));
    fma_pairs<<<pairs / 128, 128>>>(a, b, c, pairs);
    count_greater<<<pairs / 128, 128>>>(c, __float2half_rn(6.0f), count, pairs);
    CHECK_CUDA(cudaGetLastError());
    int hcount = 0;
    CHECK_CUDA(cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&hcount, count, sizeof hcount, cudaMemcpyDeviceToHost));
    bool ok = true;
    int expected_count = 0;
    double total = 0;
    for (int i = 0; i < pairs; ++i) {  // every value is a small multiple of 0.5: exact in fp16
        float lo = (i % 16) * 0.5f + 1.0f + (i % 16) * 0.5f, hi = 2.0f * (i % 4) + (-1.0f + 1.0f);
        float glo = __low2float(hc[i]), ghi = __high2float(hc[i]);
        ok = ok && glo == lo && ghi == hi;
        expected_count += (lo > 6.0f) + (hi > 6.0f);
        total += glo + ghi;
    }
    ok = ok && hcount == expected_count;
    std::printf("sum %.1f, values above 6: %d (expected %d)\n", total, hcount, expected_count);
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(count);
    return report("fp16_half2", ok);
}
