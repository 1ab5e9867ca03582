// Pattern: host-side generator API: curandCreateGenerator, seed, offset, ordering, generate uniform /
// normal / log-normal into device buffers, with a CURAND_CALL error macro.
#include <curand.h>
#include <cuda_runtime.h>
#include <cstdio>

#define CURAND_CALL(x) do { if ((x) != CURAND_STATUS_SUCCESS) { printf("curand error %s:%d\n", __FILE__, __LINE__); return 1; } } while (0)

int main() {
    const size_t n = 1 << 16;
    float* d;
    double* dd;
    cudaMalloc(&d, n * sizeof(float));
    cudaMalloc(&dd, n * sizeof(double));
    curandGenerator_t gen;
    CURAND_CALL(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    CURAND_CALL(curandSetPseudoRandomGeneratorSeed(gen, 42ULL));
    CURAND_CALL(curandSetGeneratorOffset(gen, 0ULL));
    cudaStream_t s;
    cudaStreamCreate(&s);
    CURAND_CALL(curandSetStream(gen, s));
    CURAND_CALL(curandGenerateUniform(gen, d, n));
    CURAND_CALL(curandGenerateNormal(gen, d, n, 0.0f, 1.0f));
    CURAND_CALL(curandGenerateLogNormalDouble(gen, dd, n, 0.0, 0.5));
    unsigned int* u;
    cudaMalloc(&u, n * sizeof(unsigned int));
    CURAND_CALL(curandGenerate(gen, u, n));
    CURAND_CALL(curandDestroyGenerator(gen));
    cudaStreamDestroy(s);
    cudaFree(d); cudaFree(dd); cudaFree(u);
    return 0;
}
