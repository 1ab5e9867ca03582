// Grid-wide synchronisation: a cooperative launch (cudaLaunchCooperativeKernel) with grid.sync().
#include "common.cuh"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void two_phase(int* data, int* total, int n) {
    cg::grid_group grid = cg::this_grid();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] = i % 10;
    grid.sync();
    if (grid.thread_rank() == 0) {
        int s = 0;
        for (int i = 0; i < n; ++i) s += data[i];
        *total = s;
    }
}

int main() {
    int supported = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0));
    const int n = 10000;
    int *data, *total;
    CHECK_CUDA(cudaMalloc(&data, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&total, sizeof(int)));
    int blocks_per_sm = 0, sms = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, two_phase, 128, 0));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int nn = n;
    void* args[] = {&data, &total, &nn};
    dim3 grid(blocks_per_sm * sms < 8 ? blocks_per_sm * sms : 8), block(128);
    CHECK_CUDA(cudaLaunchCooperativeKernel((void*)two_phase, grid, block, args, 0, 0));
    int got = 0;
    CHECK_CUDA(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
    std::printf("cooperative launch %s, total = %d\n", supported ? "supported" : "unsupported", got);
    cudaFree(data); cudaFree(total);
    return report("coop_groups_grid", supported && got == 45000);
}
