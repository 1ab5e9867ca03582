// cuRAND device API with MTGP32: host-side constants and kernel states (curandMakeMTGP32Constants,
// curandMakeMTGP32KernelState), one state per block, every thread of a block drawing from it.
#include "common.cuh"
#include <curand_kernel.h>
#include <curand_mtgp32_host.h>
#include <curand_mtgp32dc_p_11213.h>
#include <cmath>

__global__ void draw(curandStateMtgp32_t* states, int rounds, float* sums) {
    float s = 0.0f;
    for (int r = 0; r < rounds; ++r) s += curand_uniform(&states[blockIdx.x]);
    atomicAdd(&sums[blockIdx.x], s);
}

int main() {
    const int blocks = 8, threads = 256, rounds = 32;  // MTGP32 serves at most 256 threads per block
    curandStateMtgp32_t* states;
    mtgp32_kernel_params_t* params;
    float* sums;
    CHECK_CUDA(cudaMalloc(&states, blocks * sizeof(curandStateMtgp32_t)));
    CHECK_CUDA(cudaMalloc(&params, sizeof(mtgp32_kernel_params_t)));
    CHECK_CUDA(cudaMalloc(&sums, blocks * sizeof(float)));
    CHECK_CUDA(cudaMemset(sums, 0, blocks * sizeof(float)));
    if (curandMakeMTGP32Constants(mtgp32dc_params_fast_11213, params) != CURAND_STATUS_SUCCESS ||
        curandMakeMTGP32KernelState(states, mtgp32dc_params_fast_11213, params, blocks, 2026ULL) !=
            CURAND_STATUS_SUCCESS) {
        std::fprintf(stderr, "MTGP32 setup failed\n");
        return 2;
    }
    draw<<<blocks, threads>>>(states, rounds, sums);
    CHECK_CUDA(cudaGetLastError());
    float h[blocks];
    CHECK_CUDA(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost));
    double total = 0;
    bool distinct = true;
    for (int b = 0; b < blocks; ++b) {
        total += h[b];
        for (int c = 0; c < b; ++c) distinct = distinct && h[b] != h[c];
    }
    double mean = total / ((double)blocks * threads * rounds);
    std::printf("mtgp32 uniform mean %.2f, blocks distinct: %s\n", mean, distinct ? "yes" : "no");
    cudaFree(states);
    cudaFree(params);
    cudaFree(sums);
    return report("curand_mtgp32", std::fabs(mean - 0.5) < 0.01 && distinct);
}
