// Pattern: cooperative groups reduction with tiled_partition<32>, tile.shfl_down, thread_rank,
// meta_group_rank, and cg::sync(block).
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__device__ float tileSum(cg::thread_block_tile<32> t, float v) {
    for (int o = t.size() / 2; o > 0; o /= 2) v += t.shfl_down(v, o);
    return v;
}

__global__ void reduce(const float* in, float* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ float s[32];
    float v = 0.f;
    for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n; i += gridDim.x * block.size())
        v += in[i];
    v = tileSum(tile, v);
    if (tile.thread_rank() == 0) s[threadIdx.x / 32] = v;
    cg::sync(block);
    if (threadIdx.x < 32) {
        v = threadIdx.x < block.size() / 32 ? s[threadIdx.x] : 0.f;
        v = tileSum(tile, v);
        if (tile.thread_rank() == 0) atomicAdd(out, v);
    }
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 1 << 20);
    cudaMalloc(&out, 4);
    reduce<<<16, 256>>>(in, out, (1 << 20) / 4);
    cudaDeviceSynchronize();
    return 0;
}
