#include <cusparse.h>
#include "api.h"
#include "common.cuh"

std::vector<int> coo_rows_to_csr(const std::vector<int>& rows, int m) {
  const int nnz = static_cast<int>(rows.size());
  int *d_rows = nullptr, *d_ptr = nullptr;
  RS_CHECK(cudaMalloc(&d_rows, nnz * sizeof(int)));
  RS_CHECK(cudaMalloc(&d_ptr, (m + 1) * sizeof(int)));
  RS_CHECK(cudaMemcpy(d_rows, rows.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  cusparseHandle_t handle;
  cusparseCreate(&handle);
  cusparseXcoo2csr(handle, d_rows, nnz, m, d_ptr, CUSPARSE_INDEX_BASE_ZERO);
  cusparseDestroy(handle);
  std::vector<int> ptr(m + 1);
  RS_CHECK(cudaMemcpy(ptr.data(), d_ptr, (m + 1) * sizeof(int), cudaMemcpyDeviceToHost));
  RS_CHECK(cudaFree(d_rows));
  RS_CHECK(cudaFree(d_ptr));
  return ptr;
}
