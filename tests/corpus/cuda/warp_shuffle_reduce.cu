// Warp shuffles written for any warp size: __shfl_down_sync reduction over warpSize lanes.
#include "common.cuh"

__device__ float warp_sum(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void block_sum(const float* x, int n, float* out) {
    extern __shared__ float partial[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    v = warp_sum(v);
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int warps = (blockDim.x + warpSize - 1) / warpSize;
        v = lane < warps ? partial[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

int main() {
    const int n = 1 << 16;
    float* h = new float[n];
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 10);
    float *x, *out;
    CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&out, sizeof(float)));
    CHECK_CUDA(cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(out, 0, sizeof(float)));
    int ws = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&ws, cudaDevAttrWarpSize, 0));
    block_sum<<<n / 256, 256, (256 / ws) * sizeof(float)>>>(x, n, out);
    float got;
    CHECK_CUDA(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    double want = 0;
    for (int i = 0; i < n; ++i) want += h[i];
    std::printf("sum = %.1f (expected %.1f)\n", got, want);
    delete[] h; cudaFree(x); cudaFree(out);
    return report("warp_shuffle_reduce", got == (float)want);
}
