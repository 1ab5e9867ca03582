#define BM 32
#define BN 32
#define BK 32
__global__ void sgemm_tiled(const float* A, const float* B, float* C, int N) {
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];
  int row = blockIdx.y * 32 + threadIdx.y;
  int col = blockIdx.x * 32 + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < N; t += 32) {
    As[threadIdx.y][threadIdx.x] = A[row * N + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
void run_sgemm(const float* A, const float* B, float* C, int N) {
  dim3 block(32, 32);
  dim3 grid(N / 32, N / 32);
  sgemm_tiled<<<grid, block>>>(A, B, C, N);
}
