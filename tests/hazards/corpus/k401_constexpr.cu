constexpr int BM = 128;
constexpr int BK = 128;
__global__ void gemm(const float* a) {
  __shared__ float As[2][BM * BK];
  As[0][threadIdx.x] = a[threadIdx.x];
}
