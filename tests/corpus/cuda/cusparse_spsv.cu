// cuSPARSE generic API: lower-triangular solve L y = alpha x with cusparseSpSV (buffer size, analysis, solve)
// on a CSR matrix whose fill mode and diagonal type are set as SpMat attributes.
#include "common.cuh"
#include <cusparse.h>
#include <cmath>

#define CHECK_SP(call) do { cusparseStatus_t s_ = (call); if (s_ != CUSPARSE_STATUS_SUCCESS) { \
    std::fprintf(stderr, "cuSPARSE error %d at line %d\n", (int)s_, __LINE__); return 2; } } while (0)

int main() {
    // L = [2 0 0 0; 1 4 0 0; 0 2 8 0; 1 0 1 2], x = L * (1 2 3 4)
    const int n = 4, nnz = 8;
    int hptr[n + 1] = {0, 1, 3, 5, 8}, hcol[nnz] = {0, 0, 1, 1, 2, 0, 2, 3};
    float hval[nnz] = {2, 1, 4, 2, 8, 1, 1, 2};
    float hx[n] = {2, 9, 28, 12}, hy[n] = {0, 0, 0, 0};
    int *ptr, *col;
    float *val, *x, *y;
    CHECK_CUDA(cudaMalloc(&ptr, sizeof hptr));
    CHECK_CUDA(cudaMalloc(&col, sizeof hcol));
    CHECK_CUDA(cudaMalloc(&val, sizeof hval));
    CHECK_CUDA(cudaMalloc(&x, sizeof hx));
    CHECK_CUDA(cudaMalloc(&y, sizeof hy));
    CHECK_CUDA(cudaMemcpy(ptr, hptr, sizeof hptr, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(col, hcol, sizeof hcol, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(val, hval, sizeof hval, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(y, 0, sizeof hy));

    cusparseHandle_t h;
    CHECK_SP(cusparseCreate(&h));
    cusparseSpMatDescr_t L;
    cusparseDnVecDescr_t vx, vy;
    CHECK_SP(cusparseCreateCsr(&L, n, n, nnz, ptr, col, val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                               CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    cusparseFillMode_t fill = CUSPARSE_FILL_MODE_LOWER;
    cusparseDiagType_t diag = CUSPARSE_DIAG_TYPE_NON_UNIT;
    CHECK_SP(cusparseSpMatSetAttribute(L, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill));
    CHECK_SP(cusparseSpMatSetAttribute(L, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag));
    CHECK_SP(cusparseCreateDnVec(&vx, n, x, CUDA_R_32F));
    CHECK_SP(cusparseCreateDnVec(&vy, n, y, CUDA_R_32F));
    cusparseSpSVDescr_t sv;
    CHECK_SP(cusparseSpSV_createDescr(&sv));
    float alpha = 1.0f;
    size_t bytes = 0;
    CHECK_SP(cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, L, vx, vy, CUDA_R_32F,
                                     CUSPARSE_SPSV_ALG_DEFAULT, sv, &bytes));
    void* buffer;
    CHECK_CUDA(cudaMalloc(&buffer, bytes ? bytes : 1));
    CHECK_SP(cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, L, vx, vy, CUDA_R_32F,
                                   CUSPARSE_SPSV_ALG_DEFAULT, sv, buffer));
    CHECK_SP(cusparseSpSV_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, L, vx, vy, CUDA_R_32F,
                                CUSPARSE_SPSV_ALG_DEFAULT, sv));
    CHECK_CUDA(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
    std::printf("y = %.3f %.3f %.3f %.3f\n", hy[0], hy[1], hy[2], hy[3]);
    cusparseSpSV_destroyDescr(sv);
    cusparseDestroySpMat(L); cusparseDestroyDnVec(vx); cusparseDestroyDnVec(vy); cusparseDestroy(h);
    cudaFree(buffer); cudaFree(ptr); cudaFree(col); cudaFree(val); cudaFree(x); cudaFree(y);
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && std::fabs(hy[i] - (i + 1)) < 1e-5f;
    return report("cusparse_spsv", ok);
}
