#include <curand_kernel.h>
__global__ void fill(float* out, unsigned long long seed) {
    curandState state;
    curand_init(seed, threadIdx.x, 0, &state);
    out[threadIdx.x] = curand_uniform(&state);
}
