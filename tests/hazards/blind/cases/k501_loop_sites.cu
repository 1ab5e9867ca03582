#include <mma.h>
namespace w = nvcuda::wmma;
__global__ void tiled(const half* a, const half* b, float* c, int K) {
  w::fragment<w::matrix_a, 16, 16, 16, half, w::row_major> fa;
  w::fragment<w::matrix_b, 16, 16, 16, half, w::row_major> fb;
  w::fragment<w::accumulator, 16, 16, 16, float> acc;
  w::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    w::load_matrix_sync(fa, a + k, K);
    w::load_matrix_sync(fb, b + k * 16, 16);
    w::mma_sync(acc, fa, fb, acc);
  }
  w::store_matrix_sync(c, acc, 16, w::mem_row_major);
}
