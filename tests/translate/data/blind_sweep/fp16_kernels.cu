// Pattern: half-precision elementwise kernels with half2 vectorization: __floats2half2_rn, __hmul2,
// __hadd2, __hfma2, __low2float/__high2float, __half2float, __float2half_rn, hmax-free comparisons.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void axpy_h2(int n2, __half2 a, const __half2* x, __half2* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) y[i] = __hfma2(a, x[i], y[i]);
}

__global__ void to_float(int n, const __half* h, float* f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) f[i] = __half2float(h[i]);
}

__global__ void scale(int n2, const half2* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n2) return;
    half2 s = __hmul2(x[i], __float2half2_rn(0.5f));
    s = __hadd2(s, __floats2half2_rn(1.0f, 2.0f));
    out[2 * i] = __low2float(s);
    out[2 * i + 1] = __high2float(s);
    __half m = __hgt(__low2half(s), __high2half(s)) ? __low2half(s) : __high2half(s);
    out[0] += __half2float(__hadd(m, __float2half_rn(0.f)));
}

int main() {
    __half2 *x, *y;
    cudaMalloc(&x, 1024 * sizeof(__half2));
    cudaMalloc(&y, 1024 * sizeof(__half2));
    __half2 a = __floats2half2_rn(2.f, 2.f);
    axpy_h2<<<4, 256>>>(1024, a, x, y);
    cudaDeviceSynchronize();
    return 0;
}
