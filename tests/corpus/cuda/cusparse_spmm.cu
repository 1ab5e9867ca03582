// cuSPARSE generic API: a COO matrix times a dense column-major matrix (cusparseSpMM), then the same CSR
// matrix times a vector with a non-default algorithm and a transposed operator (cusparseSpMV).
#include "common.cuh"
#include <cusparse.h>

#define CHECK_SP(call) do { cusparseStatus_t s_ = (call); if (s_ != CUSPARSE_STATUS_SUCCESS) { \
    std::fprintf(stderr, "cuSPARSE error %d at line %d\n", (int)s_, __LINE__); return 2; } } while (0)

int main() {
    // A (3x4) = [1 0 2 0; 0 3 0 0; 4 0 0 5] in COO, B (4x2) column-major, C = A * B (3x2)
    const int m = 3, k = 4, n = 2, nnz = 5;
    int hrows[nnz] = {0, 0, 1, 2, 2}, hcols[nnz] = {0, 2, 1, 0, 3}, hptr[m + 1] = {0, 2, 3, 5};
    float hvals[nnz] = {1, 2, 3, 4, 5};
    float hB[k * n] = {1, 2, 3, 4, 5, 6, 7, 8};  // columns (1 2 3 4) and (5 6 7 8)
    float hx[m] = {1, 1, 1}, hC[m * n], hy[k];
    int *rows, *cols, *ptr;
    float *vals, *B, *C, *x, *y;
    CHECK_CUDA(cudaMalloc(&rows, sizeof hrows));
    CHECK_CUDA(cudaMalloc(&cols, sizeof hcols));
    CHECK_CUDA(cudaMalloc(&ptr, sizeof hptr));
    CHECK_CUDA(cudaMalloc(&vals, sizeof hvals));
    CHECK_CUDA(cudaMalloc(&B, sizeof hB));
    CHECK_CUDA(cudaMalloc(&C, sizeof hC));
    CHECK_CUDA(cudaMalloc(&x, sizeof hx));
    CHECK_CUDA(cudaMalloc(&y, sizeof hy));
    CHECK_CUDA(cudaMemcpy(rows, hrows, sizeof hrows, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(cols, hcols, sizeof hcols, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(ptr, hptr, sizeof hptr, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(vals, hvals, sizeof hvals, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(B, hB, sizeof hB, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));

    cusparseHandle_t h;
    CHECK_SP(cusparseCreate(&h));
    cusparseSpMatDescr_t coo, csr;
    cusparseDnMatDescr_t matB, matC;
    cusparseDnVecDescr_t vx, vy;
    CHECK_SP(cusparseCreateCoo(&coo, m, k, nnz, rows, cols, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                               CUDA_R_32F));
    CHECK_SP(cusparseCreateCsr(&csr, m, k, nnz, ptr, cols, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                               CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_SP(cusparseCreateDnMat(&matB, k, n, k, B, CUDA_R_32F, CUSPARSE_ORDER_COL));
    CHECK_SP(cusparseCreateDnMat(&matC, m, n, m, C, CUDA_R_32F, CUSPARSE_ORDER_COL));
    CHECK_SP(cusparseCreateDnVec(&vx, m, x, CUDA_R_32F));
    CHECK_SP(cusparseCreateDnVec(&vy, k, y, CUDA_R_32F));
    int64_t rows_of_a = 0, cols_of_a = 0, nnz_of_a = 0;
    CHECK_SP(cusparseSpMatGetSize(csr, &rows_of_a, &cols_of_a, &nnz_of_a));

    float alpha = 1.0f, beta = 0.0f;
    size_t bytes_mm = 0, bytes_mv = 0;
    CHECK_SP(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                     coo, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &bytes_mm));
    CHECK_SP(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_TRANSPOSE, &alpha, csr, vx, &beta, vy, CUDA_R_32F,
                                     CUSPARSE_SPMV_CSR_ALG1, &bytes_mv));
    void *buf_mm, *buf_mv;
    CHECK_CUDA(cudaMalloc(&buf_mm, bytes_mm ? bytes_mm : 1));
    CHECK_CUDA(cudaMalloc(&buf_mv, bytes_mv ? bytes_mv : 1));
    CHECK_SP(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, coo, matB,
                          &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buf_mm));
    CHECK_SP(cusparseSpMV(h, CUSPARSE_OPERATION_TRANSPOSE, &alpha, csr, vx, &beta, vy, CUDA_R_32F,
                          CUSPARSE_SPMV_CSR_ALG1, buf_mv));
    CHECK_CUDA(cudaMemcpy(hC, C, sizeof hC, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    std::printf("A is %lldx%lld with %lld nonzeros\n", (long long)rows_of_a, (long long)cols_of_a,
                (long long)nnz_of_a);
    std::printf("C = [%.0f %.0f; %.0f %.0f; %.0f %.0f]\n", hC[0], hC[3], hC[1], hC[4], hC[2], hC[5]);
    std::printf("A^T x = %.0f %.0f %.0f %.0f\n", hy[0], hy[1], hy[2], hy[3]);
    cusparseDestroySpMat(coo); cusparseDestroySpMat(csr);
    cusparseDestroyDnMat(matB); cusparseDestroyDnMat(matC);
    cusparseDestroyDnVec(vx); cusparseDestroyDnVec(vy);
    cusparseDestroy(h);
    cudaFree(buf_mm); cudaFree(buf_mv); cudaFree(rows); cudaFree(cols); cudaFree(ptr); cudaFree(vals);
    cudaFree(B); cudaFree(C); cudaFree(x); cudaFree(y);
    // C column 0: (1+6, 6, 4+20) = (7, 6, 24); column 1: (5+14, 18, 20+40) = (19, 18, 60); A^T 1 = (5, 3, 2, 5)
    bool ok = rows_of_a == m && cols_of_a == k && nnz_of_a == nnz && hC[0] == 7 && hC[1] == 6 && hC[2] == 24 &&
              hC[3] == 19 && hC[4] == 18 && hC[5] == 60 && hy[0] == 5 && hy[1] == 3 && hy[2] == 2 && hy[3] == 5;
    return report("cusparse_spmm", ok);
}
