// cuda2rocm-options: --target-rocm 7.0
#include <cublas_v2.h>
#include <cuComplex.h>
#include <library_types.h>
cublasStatus_t gemm(cublasHandle_t h, int n, const void* A, const void* B, void* C, const float* alpha) {
    cudaDataType ab = CUDA_R_16F;
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F_FAST_16F;
    cublasAxpyEx(h, n, alpha, CUDA_R_32F, A, ab, 1, C, CUDA_R_32F, 1, CUDA_R_32F);
    return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, alpha, A, ab, n, B, CUDA_R_16F, n, alpha, C,
                        CUDA_R_32F, n, compute, CUBLAS_GEMM_DEFAULT);
}
cublasStatus_t caxpy(cublasHandle_t h, int n, const cuComplex* a, const cuComplex* x, cuComplex* y) {
    return cublasCaxpy(h, n, a, x, 1, y, 1);
}
