#include <cublasLt.h>
int lt(cublasLtHandle_t* h, cublasLtMatmulDesc_t* desc) {
    if (cublasLtCreate(h) != CUBLAS_STATUS_SUCCESS) return 1;
    return cublasLtMatmulDescCreate(desc, CUBLAS_COMPUTE_32F, CUDA_R_32F) == CUBLAS_STATUS_SUCCESS ? 0 : 2;
}
