// Pattern: generic cuSPARSE SpMV: cusparseCreateCsr, cusparseCreateDnVec, cusparseSpMV_bufferSize,
// cusparseSpMV with CUSPARSE_SPMV_ALG_DEFAULT, CHECK_CUSPARSE macro, destroy descriptors.
#include <cusparse.h>
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK_CUSPARSE(x) do { cusparseStatus_t st_ = (x); if (st_ != CUSPARSE_STATUS_SUCCESS) { \
    printf("cusparse %d at %d\n", (int)st_, __LINE__); return 1; } } while (0)

int main() {
    int rows = 4, cols = 4, nnz = 4;
    int *rowPtr, *colInd;
    float *vals, *x, *y;
    cudaMalloc(&rowPtr, (rows + 1) * sizeof(int));
    cudaMalloc(&colInd, nnz * sizeof(int));
    cudaMalloc(&vals, nnz * sizeof(float));
    cudaMalloc(&x, cols * sizeof(float));
    cudaMalloc(&y, rows * sizeof(float));
    cusparseHandle_t h;
    CHECK_CUSPARSE(cusparseCreate(&h));
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vx, vy;
    CHECK_CUSPARSE(cusparseCreateCsr(&A, rows, cols, nnz, rowPtr, colInd, vals, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vx, cols, x, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vy, rows, y, CUDA_R_32F));
    float alpha = 1.f, beta = 0.f;
    size_t bytes = 0;
    CHECK_CUSPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy,
                                           CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    void* buf = nullptr;
    cudaMalloc(&buf, bytes);
    CHECK_CUSPARSE(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, buf));
    CHECK_CUSPARSE(cusparseDestroySpMat(A));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vx));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vy));
    CHECK_CUSPARSE(cusparseDestroy(h));
    cudaFree(buf);
    return 0;
}
