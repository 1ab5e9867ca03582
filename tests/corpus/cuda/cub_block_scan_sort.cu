// CUB block- and warp-level primitives (each has a rocPRIM counterpart behind hipCUB): BlockLoad/BlockStore,
// BlockRadixSort, BlockScan (exclusive sum) and a 32-wide WarpReduce over shared TempStorage; checked on the host.
#include "common.cuh"
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_reduce.cuh>

constexpr int kThreads = 128, kItems = 4, kTile = kThreads * kItems;

__global__ void sort_and_scan(const int* in, int* sorted, int* scanned, int* warp_sums) {
    using Load = cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
    using Sort = cub::BlockRadixSort<int, kThreads, kItems>;
    using Scan = cub::BlockScan<int, kThreads>;
    using Store = cub::BlockStore<int, kThreads, kItems, cub::BLOCK_STORE_TRANSPOSE>;
    using Warp = cub::WarpReduce<int, 32>;  // logical warps of 32 threads, also on 64-wide wavefronts
    __shared__ union {
        typename Load::TempStorage load;
        typename Sort::TempStorage sort;
        typename Scan::TempStorage scan;
        typename Store::TempStorage store;
    } temp;
    __shared__ typename Warp::TempStorage warp[kThreads / 32];
    int items[kItems];
    Load(temp.load).Load(in + blockIdx.x * kTile, items);
    __syncthreads();
    Sort(temp.sort).Sort(items);
    __syncthreads();
    Store(temp.store).Store(sorted + blockIdx.x * kTile, items);
    __syncthreads();
    int ones[kItems] = {1, 1, 1, 1}, offsets[kItems];
    Scan(temp.scan).ExclusiveSum(ones, offsets);
    for (int k = 0; k < kItems; ++k) scanned[blockIdx.x * kTile + threadIdx.x * kItems + k] = offsets[k];
    int total = Warp(warp[threadIdx.x / 32]).Sum(items[0] + items[1] + items[2] + items[3]);
    if (threadIdx.x % 32 == 0) warp_sums[blockIdx.x * (kThreads / 32) + threadIdx.x / 32] = total;
}

int main() {
    const int blocks = 2, n = blocks * kTile, warps = blocks * kThreads / 32;
    int hin[n], hsorted[n], hscan[n], hwarp[warps];
    for (int i = 0; i < n; ++i) hin[i] = (i * 7919) % 1009 - 500;
    int *in, *sorted, *scanned, *wsums;
    CHECK_CUDA(cudaMalloc(&in, sizeof hin));
    CHECK_CUDA(cudaMalloc(&sorted, sizeof hsorted));
    CHECK_CUDA(cudaMalloc(&scanned, sizeof hscan));
    CHECK_CUDA(cudaMalloc(&wsums, sizeof hwarp));
    CHECK_CUDA(cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice));
    sort_and_scan<<<blocks, kThreads>>>(in, sorted, scanned, wsums);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(hsorted, sorted, sizeof hsorted, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hscan, scanned, sizeof hscan, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hwarp, wsums, sizeof hwarp, cudaMemcpyDeviceToHost));
    bool ok = true;
    long long tile_sum[blocks] = {0, 0}, warp_total[blocks] = {0, 0};
    for (int i = 0; i < n; ++i) {
        if (i % kTile) ok = ok && hsorted[i - 1] <= hsorted[i];
        ok = ok && hscan[i] == i % kTile;
        tile_sum[i / kTile] += hin[i];
    }
    for (int w = 0; w < warps; ++w) warp_total[w / (kThreads / 32)] += hwarp[w];
    for (int b = 0; b < blocks; ++b) ok = ok && tile_sum[b] == warp_total[b];
    std::printf("tile 0: min %d max %d sum %lld; tile 1: min %d max %d sum %lld\n", hsorted[0], hsorted[kTile - 1],
                tile_sum[0], hsorted[kTile], hsorted[n - 1], tile_sum[1]);
    cudaFree(in); cudaFree(sorted); cudaFree(scanned); cudaFree(wsums);
    return report("cub_block_scan_sort", ok);
}
