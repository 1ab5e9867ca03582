#include <cublas_v2.h>
#include <cuda_bf16.h>

#include "libgemm/libgemm.h"

namespace libgemm {

cublasStatus_t gemm_bf16(cublasHandle_t handle, const void* a, const void* b, void* c, int m, int n, int k) {
  const float alpha = 1.f;
  const float beta = 0.f;
  cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH);
  // Row-major C = A * B is column-major C^T = B^T * A^T.
  return cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16BF, n, a, CUDA_R_16BF,
                      k, &beta, c, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
}

}  // namespace libgemm
