// cuSPARSE generic API: CSR sparse matrix times dense vector (cusparseSpMV).
#include "common.cuh"
#include <cusparse.h>

#define CHECK_SP(call) do { cusparseStatus_t s_ = (call); if (s_ != CUSPARSE_STATUS_SUCCESS) { \
    std::fprintf(stderr, "cuSPARSE error %d at line %d\n", (int)s_, __LINE__); return 2; } } while (0)

int main() {
    // 4x4 tridiagonal matrix [2 -1 0 0; -1 2 -1 0; 0 -1 2 -1; 0 0 -1 2]
    const int rows = 4, nnz = 10;
    int hrow[rows + 1] = {0, 2, 5, 8, 10}, hcol[nnz] = {0, 1, 0, 1, 2, 1, 2, 3, 2, 3};
    float hval[nnz] = {2, -1, -1, 2, -1, -1, 2, -1, -1, 2}, hx[rows] = {1, 2, 3, 4}, hy[rows];
    int *row, *col; float *val, *x, *y;
    CHECK_CUDA(cudaMalloc(&row, sizeof(hrow)));
    CHECK_CUDA(cudaMalloc(&col, sizeof(hcol)));
    CHECK_CUDA(cudaMalloc(&val, sizeof(hval)));
    CHECK_CUDA(cudaMalloc(&x, sizeof(hx)));
    CHECK_CUDA(cudaMalloc(&y, sizeof(hy)));
    CHECK_CUDA(cudaMemcpy(row, hrow, sizeof(hrow), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(col, hcol, sizeof(hcol), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(val, hval, sizeof(hval), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice));
    cusparseHandle_t h;
    CHECK_SP(cusparseCreate(&h));
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vx, vy;
    CHECK_SP(cusparseCreateCsr(&A, rows, rows, nnz, row, col, val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                               CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_SP(cusparseCreateDnVec(&vx, rows, x, CUDA_R_32F));
    CHECK_SP(cusparseCreateDnVec(&vy, rows, y, CUDA_R_32F));
    float alpha = 1.0f, beta = 0.0f;
    size_t bytes = 0;
    CHECK_SP(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                                     CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    void* buffer;
    CHECK_CUDA(cudaMalloc(&buffer, bytes ? bytes : 1));
    CHECK_SP(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
                          CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    CHECK_CUDA(cudaMemcpy(hy, y, sizeof(hy), cudaMemcpyDeviceToHost));
    std::printf("y = %.0f %.0f %.0f %.0f\n", hy[0], hy[1], hy[2], hy[3]);
    cusparseDestroySpMat(A); cusparseDestroyDnVec(vx); cusparseDestroyDnVec(vy); cusparseDestroy(h);
    cudaFree(buffer); cudaFree(row); cudaFree(col); cudaFree(val); cudaFree(x); cudaFree(y);
    return report("cusparse_spmv", hy[0] == 0 && hy[1] == 0 && hy[2] == 0 && hy[3] == 5);
}
