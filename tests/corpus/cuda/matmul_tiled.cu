// Shared-memory tiled SGEMM (C = A * B), checked against a CPU result.
#include "common.cuh"
#include <cmath>

constexpr int T = 16;

__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float As[T][T], Bs[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * K + k0 + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < T; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

int main() {
    const int M = 70, N = 50, K = 40;
    float *A = new float[M * K], *B = new float[K * N], *C = new float[M * N];
    for (int i = 0; i < M * K; ++i) A[i] = (float)(i % 7) * 0.25f;
    for (int i = 0; i < K * N; ++i) B[i] = (float)(i % 5) * 0.5f;
    float *dA, *dB, *dC;
    CHECK_CUDA(cudaMalloc(&dA, M * K * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dB, K * N * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dC, M * N * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(dA, A, M * K * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB, B, K * N * sizeof(float), cudaMemcpyHostToDevice));
    matmul<<<dim3((N + T - 1) / T, (M + T - 1) / T), dim3(T, T)>>>(dA, dB, dC, M, N, K);
    CHECK_CUDA(cudaMemcpy(C, dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));
    double max_err = 0, trace = 0;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double ref = 0;
            for (int k = 0; k < K; ++k) ref += A[i * K + k] * B[k * N + j];
            max_err = std::fmax(max_err, std::fabs(ref - C[i * N + j]));
            if (i == j) trace += C[i * N + j];
        }
    std::printf("trace = %.2f max_err = %.1e\n", trace, max_err);
    delete[] A; delete[] B; delete[] C; cudaFree(dA); cudaFree(dB); cudaFree(dC);
    return report("matmul_tiled", max_err < 1e-3);
}
