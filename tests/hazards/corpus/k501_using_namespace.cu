#include <mma.h>
using namespace nvcuda::wmma;
__global__ void tile(const half* a, const half* b, float* c) {
  fragment<matrix_a, 16, 16, 16, half, row_major> fa;
  fragment<matrix_b, 16, 16, 16, half, col_major> fb;
  fragment<accumulator, 16, 16, 16, float> acc;
  fill_fragment(acc, 0.0f);
  load_matrix_sync(fa, a, 16);
  load_matrix_sync(fb, b, 16);
  mma_sync(acc, fa, fb, acc);
  store_matrix_sync(c, acc, 16, mem_row_major);
}
