// cuda2rocm-options: --target-rocm 5.2
#include <hipblas/hipblas.h>
#include <hip/hip_complex.h>
#include <hip/library_types.h>
hipblasStatus_t gemm(hipblasHandle_t h, int n, const void* A, const void* B, void* C, const float* alpha) {
    hipblasDatatype_t ab = HIPBLAS_R_16F;
    hipblasDatatype_t compute = HIPBLAS_R_32F;
    hipblasAxpyEx(h, n, alpha, HIPBLAS_R_32F, A, ab, 1, C, HIPBLAS_R_32F, 1, HIPBLAS_R_32F);
    return hipblasGemmEx(h, HIPBLAS_OP_N, HIPBLAS_OP_T, n, n, n, alpha, A, ab, n, B, HIPBLAS_R_16F, n, alpha, C,
                        HIPBLAS_R_32F, n, compute, HIPBLAS_GEMM_DEFAULT);
}
hipblasStatus_t caxpy(hipblasHandle_t h, int n, const hipComplex* a, const hipComplex* x, hipComplex* y) {
    return cublasCaxpy(h, n, a, x, 1, y, 1);
}
