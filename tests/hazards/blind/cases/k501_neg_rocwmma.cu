#include <rocwmma/rocwmma.hpp>
__global__ void rk(const half* a) {
  rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> f;
  rocwmma::load_matrix_sync(f, a, 16);
}
