// cuRAND device API: Philox4x32-10 states, curand_normal4 / curand_uniform4 / curand_normal2_double,
// skipahead, and an XORWOW state initialised by subsequence; sample moments checked on the host.
#include "common.cuh"
#include <curand_kernel.h>
#include <curand_philox4x32_x.h>
#include <cmath>

__global__ void philox_moments(unsigned long long seed, int rounds, double* sums) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t state;
    curand_init(seed, id, 0, &state);
    skipahead(4ULL * id, &state);  // each thread starts at its own offset too
    double s1 = 0, s2 = 0, u = 0;
    for (int r = 0; r < rounds; ++r) {
        float4 n = curand_normal4(&state);
        s1 += n.x + n.y + n.z + n.w;
        s2 += n.x * n.x + n.y * n.y + n.z * n.z + n.w * n.w;
        float4 v = curand_uniform4(&state);
        u += v.x + v.y + v.z + v.w;
    }
    double2 d = curand_normal2_double(&state);
    atomicAdd(&sums[0], s1);
    atomicAdd(&sums[1], s2);
    atomicAdd(&sums[2], u);
    atomicAdd(&sums[3], (std::isfinite(d.x) && std::isfinite(d.y)) ? 1.0 : 0.0);
}

__global__ void xorwow_bits(unsigned long long seed, unsigned int* ones) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStateXORWOW_t state;
    curand_init(seed, id, 0, &state);
    unsigned int count = 0;
    for (int k = 0; k < 64; ++k) count += __popc(curand(&state));
    atomicAdd(ones, count);
}

int main() {
    const int blocks = 32, threads = 128, rounds = 64;
    double* sums;
    unsigned int* ones;
    CHECK_CUDA(cudaMalloc(&sums, 4 * sizeof(double)));
    CHECK_CUDA(cudaMalloc(&ones, sizeof(unsigned int)));
    CHECK_CUDA(cudaMemset(sums, 0, 4 * sizeof(double)));
    CHECK_CUDA(cudaMemset(ones, 0, sizeof(unsigned int)));
    philox_moments<<<blocks, threads>>>(1234ULL, rounds, sums);
    xorwow_bits<<<blocks, threads>>>(99ULL, ones);
    CHECK_CUDA(cudaGetLastError());
    double h[4];
    unsigned int hones = 0;
    CHECK_CUDA(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&hones, ones, sizeof hones, cudaMemcpyDeviceToHost));
    const double n = 4.0 * blocks * threads * rounds;
    double mean = h[0] / n, var = h[1] / n - mean * mean, umean = h[2] / n;
    double bit_fraction = hones / (32.0 * 64 * blocks * threads);
    std::printf("normal mean %.2f variance %.2f, uniform mean %.2f, bits set %.2f\n", std::fabs(mean), var, umean,
                bit_fraction);
    cudaFree(sums);
    cudaFree(ones);
    bool ok = std::fabs(mean) < 0.01 && std::fabs(var - 1.0) < 0.01 && std::fabs(umean - 0.5) < 0.005 &&
              h[3] == blocks * threads && std::fabs(bit_fraction - 0.5) < 0.005;
    return report("curand_philox_normal", ok);
}
