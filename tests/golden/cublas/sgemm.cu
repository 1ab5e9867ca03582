#include <cublas_v2.h>
#include <cuda_runtime.h>
cublasStatus_t gemm(cublasHandle_t h, int n, const float* A, const float* B, float* C, cudaStream_t s) {
    const float alpha = 1.f, beta = 0.f;
    cublasSetStream(h, s);
    return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, n, B, n, &beta, C, n);
}
int make(cublasHandle_t* h) { return cublasCreate(h) == CUBLAS_STATUS_SUCCESS ? 0 : 1; }
