#include <cusparse.h>
int spmv(cusparseHandle_t h, int n, int nnz, int* rows, int* cols, float* vals, float* x, float* y) {
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vx, vy;
    cusparseCreateCsr(&A, n, n, nnz, rows, cols, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
    cusparseCreateDnVec(&vx, n, x, CUDA_R_32F);
    cusparseCreateDnVec(&vy, n, y, CUDA_R_32F);
    (void)h;
    return CUSPARSE_OPERATION_NON_TRANSPOSE;
}
