// A reduction that hard-codes 32 lanes and a 0xffffffff mask: correct on NVIDIA, wrong on a 64-wide
// AMD wavefront (half the lanes are never reduced). Kept in the corpus for the hazard analysis.
#include "common.cuh"

#define WARP_SIZE 32

__global__ void sum32(const int* x, int* out) {
    int v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset);
    if ((threadIdx.x & (WARP_SIZE - 1)) == 0) atomicAdd(out, v);
}

int main() {
    const int n = 1024;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i % 4;
    int *x, *out;
    CHECK_CUDA(cudaMalloc(&x, sizeof(h)));
    CHECK_CUDA(cudaMalloc(&out, sizeof(int)));
    CHECK_CUDA(cudaMemset(out, 0, sizeof(int)));
    CHECK_CUDA(cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice));
    sum32<<<n / 256, 256>>>(x, out);
    int got;
    CHECK_CUDA(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    std::printf("sum = %d (expected %d)\n", got, 3 * n / 2);
    cudaFree(x); cudaFree(out);
    return report("warp32_hazard", got == 3 * n / 2);
}
