#include <cuda_runtime.h>

template <int kRows, int kCols>
struct TileTraits {
  static constexpr int kElems = kRows * kCols;
};

using BigTile = TileTraits<144, 128>;

__global__ void tile_copy(const float* in, float* out) {
  __shared__ float buf[BigTile::kElems];
  for (int i = threadIdx.x; i < BigTile::kElems; i += blockDim.x)
    buf[i] = in[(size_t)blockIdx.x * BigTile::kElems + i];
  __syncthreads();
  for (int i = threadIdx.x; i < BigTile::kElems; i += blockDim.x)
    out[(size_t)blockIdx.x * BigTile::kElems + i] = 2.f * buf[i];
}
