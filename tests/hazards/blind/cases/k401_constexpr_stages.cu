constexpr int kStages = 4;
constexpr int kTileM = 128;
constexpr int kTileK = 96;
__global__ void staged(const float* a, float* c) {
  __shared__ float sa[kStages][kTileM * kTileK / 2];
  sa[0][threadIdx.x] = a[threadIdx.x];
  c[threadIdx.x] = sa[0][threadIdx.x];
}
