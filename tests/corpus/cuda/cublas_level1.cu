// cuBLAS level 1 on a stream: axpy, dot, nrm2, scal, with host pointer mode.
#include "common.cuh"
#include <cublas_v2.h>
#include <cmath>

int main() {
    const int n = 1000;
    double hx[n], hy[n];
    for (int i = 0; i < n; ++i) { hx[i] = 1.0; hy[i] = (double)i; }
    double *x, *y;
    CHECK_CUDA(cudaMalloc(&x, sizeof(hx)));
    CHECK_CUDA(cudaMalloc(&y, sizeof(hy)));
    CHECK_CUDA(cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(y, hy, sizeof(hy), cudaMemcpyHostToDevice));
    cublasHandle_t h;
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    bool ok = cublasCreate(&h) == CUBLAS_STATUS_SUCCESS;
    ok = ok && cublasSetStream(h, s) == CUBLAS_STATUS_SUCCESS;
    ok = ok && cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST) == CUBLAS_STATUS_SUCCESS;
    const double two = 2.0, half = 0.5;
    double dot = 0, nrm = 0;
    ok = ok && cublasDaxpy(h, n, &two, x, 1, y, 1) == CUBLAS_STATUS_SUCCESS;  // y = i + 2
    ok = ok && cublasDscal(h, n, &half, y, 1) == CUBLAS_STATUS_SUCCESS;       // y = i/2 + 1
    ok = ok && cublasDdot(h, n, x, 1, y, 1, &dot) == CUBLAS_STATUS_SUCCESS;
    ok = ok && cublasDnrm2(h, n, x, 1, &nrm) == CUBLAS_STATUS_SUCCESS;
    CHECK_CUDA(cudaStreamSynchronize(s));
    std::printf("dot = %.1f nrm2 = %.4f\n", dot, nrm);
    ok = ok && dot == 0.5 * (n - 1) * n / 2.0 + n && std::fabs(nrm - std::sqrt((double)n)) < 1e-9;
    cublasDestroy(h); cudaStreamDestroy(s); cudaFree(x); cudaFree(y);
    return report("cublas_level1", ok);
}
