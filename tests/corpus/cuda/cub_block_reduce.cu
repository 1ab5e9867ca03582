// CUB block-level collectives: BlockReduce and BlockLoad inside a kernel, TempStorage in shared memory.
#include "common.cuh"
#include <cub/cub.cuh>

struct MaxOp {
    __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

template <int THREADS, int ITEMS>
__global__ void block_max(const int* in, int* out) {
    using Load = cub::BlockLoad<int, THREADS, ITEMS, cub::BLOCK_LOAD_DIRECT>;
    using Reduce = cub::BlockReduce<int, THREADS>;
    __shared__ typename Reduce::TempStorage reduce_storage;
    int items[ITEMS];
    Load().Load(in + blockIdx.x * THREADS * ITEMS, items);
    int local = items[0];
    for (int k = 1; k < ITEMS; ++k) local = items[k] > local ? items[k] : local;
    int best = Reduce(reduce_storage).Reduce(local, MaxOp());
    if (threadIdx.x == 0) out[blockIdx.x] = best;
}

int main() {
    const int threads = 128, items = 4, blocks = 16, n = threads * items * blocks;
    int h[n], r[blocks];
    for (int i = 0; i < n; ++i) h[i] = (i * 31) % 509;
    int *in, *out;
    CHECK_CUDA(cudaMalloc(&in, sizeof(h)));
    CHECK_CUDA(cudaMalloc(&out, sizeof(r)));
    CHECK_CUDA(cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice));
    block_max<threads, items><<<blocks, threads>>>(in, out);
    CHECK_CUDA(cudaMemcpy(r, out, sizeof(r), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int b = 0; b < blocks; ++b) {
        int want = 0;
        for (int i = b * threads * items; i < (b + 1) * threads * items; ++i) want = h[i] > want ? h[i] : want;
        ok = ok && r[b] == want;
    }
    std::printf("block 0 max = %d\n", r[0]);
    cudaFree(in); cudaFree(out);
    return report("cub_block_reduce", ok);
}
