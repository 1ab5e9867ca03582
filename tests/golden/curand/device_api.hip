#include "hip/hip_runtime.h"
#include <hiprand/hiprand_kernel.h>
__global__ void fill(float* out, unsigned long long seed) {
    hiprandState state;
    hiprand_init(seed, threadIdx.x, 0, &state);
    out[threadIdx.x] = hiprand_uniform(&state);
}
