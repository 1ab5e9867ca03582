// Cooperative groups: thread_block and tiled_partition (dynamic width 16 and static width 8), tile-level
// shuffles (shfl_down, shfl_xor votes) and sync; per-tile sums and a block-wide result checked on the host.
#include "common.cuh"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void tile_sums(const int* in, int* tile16, int* tile8, int* flags) {
    cg::thread_block block = cg::this_thread_block();
    int v = in[blockIdx.x * blockDim.x + block.thread_rank()];
    cg::thread_group g16 = cg::tiled_partition(block, 16);
    __shared__ int partial[256];
    partial[block.thread_rank()] = v;
    g16.sync();
    if (g16.thread_rank() == 0) {
        int s = 0;
        for (int k = 0; k < 16; ++k) s += partial[block.thread_rank() + k];
        tile16[(blockIdx.x * blockDim.x + block.thread_rank()) / 16] = s;
    }
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    int s8 = v;
    for (int offset = t8.size() / 2; offset > 0; offset /= 2) s8 += t8.shfl_down(s8, offset);
    if (t8.thread_rank() == 0) tile8[(blockIdx.x * blockDim.x + block.thread_rank()) / 8] = s8;
    int odd_somewhere = v & 1, all_positive = v > 0;  // votes over the tile by xor-shuffles
    for (int mask = 1; mask < t8.size(); mask *= 2) {
        odd_somewhere |= t8.shfl_xor(odd_somewhere, mask);
        all_positive &= t8.shfl_xor(all_positive, mask);
    }
    block.sync();
    if (t8.thread_rank() == 0)
        atomicAdd(&flags[0], odd_somewhere), atomicAdd(&flags[1], all_positive);
}

int main() {
    const int blocks = 4, threads = 256, n = blocks * threads;
    int hin[n], h16[n / 16], h8[n / 8], hflags[2];
    for (int i = 0; i < n; ++i) hin[i] = (i % 8 == 3) ? 2 * i + 1 : 2 * i + 2;  // one odd value per 8
    int *in, *t16, *t8, *flags;
    CHECK_CUDA(cudaMalloc(&in, sizeof hin));
    CHECK_CUDA(cudaMalloc(&t16, sizeof h16));
    CHECK_CUDA(cudaMalloc(&t8, sizeof h8));
    CHECK_CUDA(cudaMalloc(&flags, sizeof hflags));
    CHECK_CUDA(cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(flags, 0, sizeof hflags));
    tile_sums<<<blocks, threads>>>(in, t16, t8, flags);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(h16, t16, sizeof h16, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(h8, t8, sizeof h8, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hflags, flags, sizeof hflags, cudaMemcpyDeviceToHost));
    bool ok = hflags[0] == n / 8 && hflags[1] == n / 8;
    long long total = 0;
    for (int t = 0; t < n / 16; ++t) {
        int s = 0;
        for (int k = 0; k < 16; ++k) s += hin[t * 16 + k];
        ok = ok && h16[t] == s;
        total += h16[t];
    }
    for (int t = 0; t < n / 8; ++t) {
        int s = 0;
        for (int k = 0; k < 8; ++k) s += hin[t * 8 + k];
        ok = ok && h8[t] == s;
    }
    std::printf("sum of tiles %lld, first tile16 %d, first tile8 %d, any-odd tiles %d, all-positive tiles %d\n",
                total, h16[0], h8[0], hflags[0], hflags[1]);
    cudaFree(in); cudaFree(t16); cudaFree(t8); cudaFree(flags);
    return report("coop_groups_partition", ok);
}
