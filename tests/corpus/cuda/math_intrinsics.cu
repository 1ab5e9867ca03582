// Math: precise functions vs fast intrinsics (__expf, __sinf, __fdividef), fmaf, rsqrtf; tolerance check.
#include "common.cuh"
#include <cmath>

__global__ void __launch_bounds__(256) evaluate(const float* x, float* precise, float* fast, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    precise[i] = expf(v) + sinf(v) + fmaf(v, v, 1.0f) / (1.0f + v * v) + rsqrtf(1.0f + v * v);
    fast[i] = __expf(v) + __sinf(v) + __fdividef(fmaf(v, v, 1.0f), 1.0f + v * v) + rsqrtf(1.0f + v * v);
}

int main() {
    const int n = 1024;
    float hx[n], hp[n], hf[n];
    for (int i = 0; i < n; ++i) hx[i] = -2.0f + 4.0f * i / n;
    float *x, *p, *f;
    CHECK_CUDA(cudaMalloc(&x, sizeof(hx)));
    CHECK_CUDA(cudaMalloc(&p, sizeof(hp)));
    CHECK_CUDA(cudaMalloc(&f, sizeof(hf)));
    CHECK_CUDA(cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice));
    evaluate<<<n / 256, 256>>>(x, p, f, n);
    CHECK_CUDA(cudaMemcpy(hp, p, sizeof(hp), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hf, f, sizeof(hf), cudaMemcpyDeviceToHost));
    double err_p = 0, err_f = 0, sum = 0;
    for (int i = 0; i < n; ++i) {
        double v = hx[i], ref = std::exp(v) + std::sin(v) + 1.0 + 1.0 / std::sqrt(1.0 + v * v);
        err_p = std::fmax(err_p, std::fabs(hp[i] - ref) / std::fabs(ref));
        err_f = std::fmax(err_f, std::fabs(hf[i] - ref) / std::fabs(ref));
        sum += hp[i];
    }
    std::printf("sum = %.3f precise_rel_err %s 1e-5, fast_rel_err %s 1e-3\n", sum, err_p < 1e-5 ? "<" : ">=",
                err_f < 1e-3 ? "<" : ">=");
    cudaFree(x); cudaFree(p); cudaFree(f);
    return report("math_intrinsics", err_p < 1e-5 && err_f < 1e-3);
}
