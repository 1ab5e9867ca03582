// Dynamic shared memory (extern __shared__) sized at launch; reverse each block's segment.
#include "common.cuh"

__global__ void reverse_blocks(int* d, int n) {
    extern __shared__ int buf[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    if (base + t < n) buf[t] = d[base + t];
    __syncthreads();
    int r = blockDim.x - 1 - t;
    if (base + r < n && base + t < n) d[base + t] = buf[r];
}

int main() {
    const int n = 64 * 96, block = 96;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i;
    int* d;
    CHECK_CUDA(cudaMalloc(&d, sizeof(h)));
    CHECK_CUDA(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
    reverse_blocks<<<n / block, block, block * sizeof(int)>>>(d, n);
    CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && h[i] == (i / block) * block + (block - 1 - i % block);
    std::printf("h[0] = %d h[95] = %d\n", h[0], h[95]);
    cudaFree(d);
    return report("dynamic_shared", ok);
}
