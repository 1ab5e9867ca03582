// Pattern: warp-level reduction with __shfl_down_sync / __shfl_xor_sync and a full mask, plus a
// block reduction through shared memory (the classic "warpReduceSum" helper).
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

__inline__ __device__ float warpReduceSum(float v) {
    for (int off = warpSize / 2; off > 0; off /= 2)
        v += __shfl_down_sync(FULL_MASK, v, off);
    return v;
}

__inline__ __device__ float warpAllMax(float v) {
    for (int m = 16; m > 0; m >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, m, 32));
    return v;
}

__global__ void blockSum(const float* in, float* out, int n) {
    static __shared__ float partial[32];
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;
    float v = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
    v = warpReduceSum(v);
    if (lane == 0) partial[wid] = v;
    __syncthreads();
    v = (threadIdx.x < blockDim.x / warpSize) ? partial[lane] : 0.f;
    if (wid == 0) v = warpReduceSum(v);
    float first = __shfl_sync(FULL_MASK, v, 0);
    float up = __shfl_up_sync(FULL_MASK, v, 1);
    if (threadIdx.x == 0) atomicAdd(out, first + 0.f * up + 0.f * warpAllMax(v));
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 4096 * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    cudaMemset(out, 0, sizeof(float));
    blockSum<<<8, 256>>>(in, out, 4096);
    cudaDeviceSynchronize();
    return 0;
}
