// cuda2rocm-options: --target-rocm 7.0
#include <hipblas/hipblas.h>
#include <hip/hip_complex.h>
#include <hip/library_types.h>
hipblasStatus_t gemm(hipblasHandle_t h, int n, const void* A, const void* B, void* C, const float* alpha) {
    hipDataType ab = HIP_R_16F;
    hipblasComputeType_t compute = HIPBLAS_COMPUTE_32F_FAST_16F;
    hipblasAxpyEx(h, n, alpha, HIP_R_32F, A, ab, 1, C, HIP_R_32F, 1, HIP_R_32F);
    return hipblasGemmEx(h, HIPBLAS_OP_N, HIPBLAS_OP_T, n, n, n, alpha, A, ab, n, B, HIP_R_16F, n, alpha, C,
                        HIP_R_32F, n, compute, HIPBLAS_GEMM_DEFAULT);
}
hipblasStatus_t caxpy(hipblasHandle_t h, int n, const hipComplex* a, const hipComplex* x, hipComplex* y) {
    return hipblasCaxpy(h, n, a, x, 1, y, 1);
}
