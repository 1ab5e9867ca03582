// Warp vote: __ballot_sync + __popc to count positive values per warp. Assumes 32-lane masks (a
// hazard on 64-wide AMD wavefronts: the upper 32 lanes are lost in the unsigned result).
#include "common.cuh"

__global__ void count_positive(const int* x, int* counts) {
    int v = x[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned mask = __ballot_sync(0xffffffff, v > 0);
    if (threadIdx.x % 32 == 0) atomicAdd(&counts[blockIdx.x], __popc(mask));
    bool any = __any_sync(0xffffffff, v > 100);
    bool all = __all_sync(0xffffffff, v > -100);
    if (threadIdx.x == 0 && (!all || any)) counts[blockIdx.x] = -1;
}

int main() {
    const int blocks = 8, threads = 128, n = blocks * threads;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = (i % 3 == 0) ? 5 : -5;
    int *x, *counts;
    CHECK_CUDA(cudaMalloc(&x, sizeof(h)));
    CHECK_CUDA(cudaMalloc(&counts, blocks * sizeof(int)));
    CHECK_CUDA(cudaMemset(counts, 0, blocks * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice));
    count_positive<<<blocks, threads>>>(x, counts);
    int got[blocks];
    CHECK_CUDA(cudaMemcpy(got, counts, sizeof(got), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int b = 0; b < blocks; ++b) {
        int want = 0;
        for (int t = 0; t < threads; ++t) want += h[b * threads + t] > 0;
        ok = ok && got[b] == want;
        std::printf("%d ", got[b]);
    }
    std::printf("\n");
    cudaFree(x); cudaFree(counts);
    return report("warp_ballot", ok);
}
