#include <rocwmma/rocwmma.hpp>
__global__ void k(const half* a) { rocwmma::fragment<rocwmma::matrix_a, 16, 16, 16, half, rocwmma::row_major> f; }
