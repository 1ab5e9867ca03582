// Pattern: gradient accumulation into half buffers: atomicAdd on __half2 / __half, hsqrt/hexp math on
// half, __shfl_down_sync on __half, conversion helpers __half2float/__float2half.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void accum(const __half* g, __half* acc, __half2* acc2, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half v = i < n ? g[i] : __float2half(0.f);
    for (int o = 16; o > 0; o >>= 1) v = __hadd(v, __shfl_down_sync(0xffffffff, v, o));
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(acc, v);
        atomicAdd(acc2, __halves2half2(v, hsqrt(__habs(v))));
    }
    __half e = hexp(__float2half(__half2float(v) * 0.f));
    if (__heq(e, __float2half(2.f))) acc[0] = e;
}

int main() {
    __half *g, *acc;
    __half2* acc2;
    cudaMalloc(&g, 2048); cudaMalloc(&acc, 2); cudaMalloc(&acc2, 4);
    accum<<<4, 256>>>(g, acc, acc2, 1024);
    cudaDeviceSynchronize();
    return 0;
}
