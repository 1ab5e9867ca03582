// cuRAND device API: per-thread curandState, curand_init and curand_uniform in a Monte Carlo pi.
#include "common.cuh"
#include <curand_kernel.h>

__global__ void pi_hits(unsigned long long seed, int per_thread, unsigned long long* hits) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState state;
    curand_init(seed, id, 0, &state);
    unsigned long long local = 0;
    for (int k = 0; k < per_thread; ++k) {
        float x = curand_uniform(&state), y = curand_uniform(&state);
        local += x * x + y * y <= 1.0f;
    }
    atomicAdd(hits, local);
}

int main() {
    const int blocks = 64, threads = 128, per_thread = 256;
    unsigned long long* hits;
    CHECK_CUDA(cudaMalloc(&hits, sizeof(unsigned long long)));
    CHECK_CUDA(cudaMemset(hits, 0, sizeof(unsigned long long)));
    pi_hits<<<blocks, threads>>>(42ULL, per_thread, hits);
    unsigned long long h = 0;
    CHECK_CUDA(cudaMemcpy(&h, hits, sizeof h, cudaMemcpyDeviceToHost));
    double pi = 4.0 * h / ((double)blocks * threads * per_thread);
    std::printf("pi ~= %.2f\n", pi);
    cudaFree(hits);
    return report("curand_device", pi > 3.13 && pi < 3.15);
}
