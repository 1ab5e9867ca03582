// Pattern: bfloat16 storage with float accumulation: __nv_bfloat16, __float2bfloat16,
// __bfloat162float, __nv_bfloat162 and __floats2bfloat162_rn as in mixed-precision training code.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void dot_bf16(const __nv_bfloat16* a, const __nv_bfloat16* b, float* out, int n) {
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc += __bfloat162float(a[i]) * __bfloat162float(b[i]);
    atomicAdd(out, acc);
}

__global__ void cast(const float* in, __nv_bfloat16* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __float2bfloat16(in[i]);
}

__global__ void pack(const float* in, __nv_bfloat162* out, int n2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) out[i] = __floats2bfloat162_rn(in[2 * i], in[2 * i + 1]);
}

int main() {
    __nv_bfloat16 *a, *b;
    float* out;
    cudaMalloc(&a, 2048);
    cudaMalloc(&b, 2048);
    cudaMalloc(&out, 4);
    dot_bf16<<<4, 256>>>(a, b, out, 1024);
    cudaDeviceSynchronize();
    return 0;
}
