// 1D stencil with a shared-memory halo (radius 3).
#include "common.cuh"

constexpr int RADIUS = 3, BLOCK = 128;

__global__ void stencil(const int* in, int* out, int n) {
    __shared__ int tmp[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x + RADIUS;
    tmp[l] = g < n ? in[g] : 0;
    if (threadIdx.x < RADIUS) {
        tmp[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0;
        tmp[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
    }
    __syncthreads();
    int sum = 0;
    for (int k = -RADIUS; k <= RADIUS; ++k) sum += tmp[l + k];
    if (g < n) out[g] = sum;
}

int main() {
    const int n = BLOCK * 40;
    int h[n], r[n];
    for (int i = 0; i < n; ++i) h[i] = i % 13;
    int *in, *out;
    CHECK_CUDA(cudaMalloc(&in, sizeof(h)));
    CHECK_CUDA(cudaMalloc(&out, sizeof(r)));
    CHECK_CUDA(cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice));
    stencil<<<n / BLOCK, BLOCK>>>(in, out, n);
    CHECK_CUDA(cudaMemcpy(r, out, sizeof(r), cudaMemcpyDeviceToHost));
    bool ok = true;
    long long total = 0;
    for (int i = 0; i < n; ++i) {
        int want = 0;
        for (int k = -RADIUS; k <= RADIUS; ++k) if (i + k >= 0 && i + k < n) want += h[i + k];
        ok = ok && r[i] == want;
        total += r[i];
    }
    std::printf("total = %lld\n", total);
    cudaFree(in); cudaFree(out);
    return report("stencil_1d", ok);
}
