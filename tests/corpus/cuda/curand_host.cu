// cuRAND host API: seeded uniform and normal generation; checks moments, not exact values
// (hipRAND/rocRAND generators produce different streams).
#include "common.cuh"
#include <curand.h>
#include <cmath>

int main() {
    const size_t n = 1 << 20;
    float* d;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
    curandGenerator_t gen;
    bool ok = curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) == CURAND_STATUS_SUCCESS;
    ok = ok && curandSetPseudoRandomGeneratorSeed(gen, 1234ULL) == CURAND_STATUS_SUCCESS;
    ok = ok && curandGenerateUniform(gen, d, n) == CURAND_STATUS_SUCCESS;
    float* h = new float[n];
    CHECK_CUDA(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    double mean = 0;
    for (size_t i = 0; i < n; ++i) mean += h[i];
    mean /= n;
    ok = ok && curandGenerateNormal(gen, d, n, 0.0f, 2.0f) == CURAND_STATUS_SUCCESS;
    CHECK_CUDA(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    double var = 0;
    for (size_t i = 0; i < n; ++i) var += (double)h[i] * h[i];
    var /= n;
    std::printf("uniform mean = %.2f normal std = %.2f\n", mean, std::sqrt(var));
    ok = ok && std::fabs(mean - 0.5) < 0.01 && std::fabs(std::sqrt(var) - 2.0) < 0.02;
    curandDestroyGenerator(gen);
    cudaFree(d); delete[] h;
    return report("curand_host", ok);
}
