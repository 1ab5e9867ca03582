// Pattern: older cuSPARSE code: cusparseMatDescr_t with cusparseSetMatType / IndexBase, csr2csc-free
// cusparseXcoo2csr conversion and cusparseGetErrorString-free status printing; pointer mode.
#include <cusparse.h>
#include <cuda_runtime.h>
#include <cstdio>

int main() {
    cusparseHandle_t h;
    cusparseCreate(&h);
    cusparseMatDescr_t d;
    cusparseCreateMatDescr(&d);
    cusparseSetMatType(d, CUSPARSE_MATRIX_TYPE_GENERAL);
    cusparseSetMatIndexBase(d, CUSPARSE_INDEX_BASE_ZERO);
    cusparseSetPointerMode(h, CUSPARSE_POINTER_MODE_HOST);
    int nnz = 8, m = 4;
    int *cooRows, *csrRows;
    cudaMalloc(&cooRows, nnz * sizeof(int));
    cudaMalloc(&csrRows, (m + 1) * sizeof(int));
    cusparseStatus_t st = cusparseXcoo2csr(h, cooRows, nnz, m, csrRows, CUSPARSE_INDEX_BASE_ZERO);
    if (st != CUSPARSE_STATUS_SUCCESS) printf("coo2csr failed %d\n", (int)st);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cusparseSetStream(h, s);
    int ver = 0;
    cusparseGetVersion(h, &ver);
    printf("cusparse %d\n", ver);
    cusparseDestroyMatDescr(d);
    cusparseDestroy(h);
    return 0;
}
