// Pattern: per-thread curandState initialised once with curand_init(seed, id, 0, &state), kept in global
// memory, then curand_uniform / curand_normal / curand_poisson-free Monte Carlo pi estimate.
#include <curand_kernel.h>
#include <cuda_runtime.h>

__global__ void setup(curandState* states, unsigned long long seed) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, id, 0, &states[id]);
}

__global__ void pi(curandState* states, unsigned int* hits, int iters) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandState local = states[id];
    unsigned int c = 0;
    for (int k = 0; k < iters; ++k) {
        float x = curand_uniform(&local), y = curand_uniform(&local);
        if (x * x + y * y <= 1.f) ++c;
    }
    float2 g = curand_normal2(&local);
    states[id] = local;
    atomicAdd(hits, c + (g.x > 100.f ? 1u : 0u));
}

__global__ void philox(float4* out, unsigned long long seed) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    curandStatePhilox4_32_10_t st;
    curand_init(seed, id, 0, &st);
    out[id] = curand_uniform4(&st);
}

int main() {
    curandState* st;
    unsigned int* hits;
    cudaMalloc(&st, 1024 * sizeof(curandState));
    cudaMalloc(&hits, sizeof(unsigned int));
    setup<<<4, 256>>>(st, 1234ULL);
    pi<<<4, 256>>>(st, hits, 100);
    cudaDeviceSynchronize();
    return 0;
}
