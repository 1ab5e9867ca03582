// Occupancy API: let the runtime pick a block size, then check the launch works with it.
#include "common.cuh"

__global__ void work(float* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = sqrtf((float)i);
}

int main() {
    int min_grid = 0, block = 0;
    CHECK_CUDA(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, work, 0, 0));
    int blocks_per_sm = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, work, block, 0));
    const int n = 100000;
    float* d;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
    work<<<(n + block - 1) / block, block>>>(d, n);
    float last;
    CHECK_CUDA(cudaMemcpy(&last, d + n - 1, sizeof last, cudaMemcpyDeviceToHost));
    bool ok = block > 0 && min_grid > 0 && blocks_per_sm > 0 && last == sqrtf((float)(n - 1));
    std::printf("block size chosen: %s, last = %.3f\n", block > 0 ? "yes" : "no", last);
    cudaFree(d);
    return report("occupancy", ok);
}
