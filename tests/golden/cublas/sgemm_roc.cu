// cuda2rocm-options: --roc
#include <cublas_v2.h>
cublasStatus_t gemm(cublasHandle_t h, int n, const float* A, const float* B, float* C) {
    const float alpha = 1.f, beta = 0.f;
    return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, n, B, n, &beta, C, n);
}
