// cuda2rocm-options: --roc
#include <rocblas/rocblas.h>
rocblas_status gemm(rocblas_handle h, int n, const float* A, const float* B, float* C) {
    const float alpha = 1.f, beta = 0.f;
    return rocblas_sgemm(h, rocblas_operation_none, rocblas_operation_none, n, n, n, &alpha, A, n, B, n, &beta, C, n);
}
