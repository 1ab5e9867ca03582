// cuBLAS: SGEMM (column-major) checked against a CPU result.
#include "common.cuh"
#include <cublas_v2.h>
#include <cmath>

#define CHECK_CUBLAS(call) do { cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) { \
    std::fprintf(stderr, "cuBLAS error %d at line %d\n", (int)s_, __LINE__); return 2; } } while (0)

int main() {
    const int m = 64, n = 48, k = 32;
    float *A = new float[m * k], *B = new float[k * n], *C = new float[m * n];
    for (int i = 0; i < m * k; ++i) A[i] = (float)(i % 9) / 8.0f;
    for (int i = 0; i < k * n; ++i) B[i] = (float)(i % 5) / 4.0f;
    float *dA, *dB, *dC;
    CHECK_CUDA(cudaMalloc(&dA, m * k * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dB, k * n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&dC, m * n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(dA, A, m * k * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB, B, k * n * sizeof(float), cudaMemcpyHostToDevice));
    cublasHandle_t handle;
    CHECK_CUBLAS(cublasCreate(&handle));
    const float alpha = 1.0f, beta = 0.0f;
    CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, m, dB, k, &beta, dC, m));
    CHECK_CUDA(cudaMemcpy(C, dC, m * n * sizeof(float), cudaMemcpyDeviceToHost));
    double max_err = 0, sum = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double ref = 0;
            for (int p = 0; p < k; ++p) ref += A[p * m + i] * B[j * k + p];
            max_err = std::fmax(max_err, std::fabs(ref - C[j * m + i]));
            sum += C[j * m + i];
        }
    std::printf("sum = %.3f max_err < 1e-3: %s\n", sum, max_err < 1e-3 ? "yes" : "no");
    CHECK_CUBLAS(cublasDestroy(handle));
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
    delete[] A; delete[] B; delete[] C;
    return report("cublas_sgemm", max_err < 1e-3);
}
