#include <hipsparse/hipsparse.h>
int spmv(hipsparseHandle_t h, int n, int nnz, int* rows, int* cols, float* vals, float* x, float* y) {
    hipsparseSpMatDescr_t A;
    hipsparseDnVecDescr_t vx, vy;
    hipsparseCreateCsr(&A, n, n, nnz, rows, cols, vals, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
                      HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F);
    hipsparseCreateDnVec(&vx, n, x, HIP_R_32F);
    hipsparseCreateDnVec(&vy, n, y, HIP_R_32F);
    (void)h;
    return HIPSPARSE_OPERATION_NON_TRANSPOSE;
}
