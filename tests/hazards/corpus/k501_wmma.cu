#include <mma.h>
using namespace nvcuda;
__global__ void k(const half* a, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::fill_fragment(fc, 0.0f);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
