// Pattern: cooperative groups coalesced_threads() for warp-aggregated atomics, plus
// thread_block_tile<16> any()/ballot() and tiled_partition(block, 4) (dynamic size).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__device__ int aggInc(int* ctr) {
    cg::coalesced_group g = cg::coalesced_threads();
    int prev = 0;
    if (g.thread_rank() == 0) prev = atomicAdd(ctr, g.size());
    return g.shfl(prev, 0) + g.thread_rank();
}

__global__ void filter(const int* in, int* out, int* ctr, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cg::thread_block b = cg::this_thread_block();
    auto t16 = cg::tiled_partition<16>(b);
    cg::thread_group t4 = cg::tiled_partition(b, 4);
    bool big = i < n && in[i] > 10;
    if (t16.any(big) && t4.thread_rank() == 0) {}
    if (i < n && in[i] > 0) out[aggInc(ctr)] = in[i];
    t4.sync();
}

int main() {
    int *in, *out, *ctr;
    cudaMalloc(&in, 4096);
    cudaMalloc(&out, 4096);
    cudaMalloc(&ctr, 4);
    filter<<<4, 256>>>(in, out, ctr, 1024);
    cudaDeviceSynchronize();
    return 0;
}
