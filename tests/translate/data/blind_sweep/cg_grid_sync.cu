// Pattern: cooperative launch with grid.sync(): occupancy query, cudaLaunchCooperativeKernel with a
// void* args array, device attribute cudaDevAttrCooperativeLaunch.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void twoPhase(float* data, float* sums, int n) {
    cg::grid_group grid = cg::this_grid();
    for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] *= 2.f;
    grid.sync();
    if (grid.thread_rank() == 0) {
        float s = 0.f;
        for (int i = 0; i < n; ++i) s += data[i];
        sums[0] = s;
    }
}

int main() {
    int dev = 0, supports = 0, numSms = 0, perSm = 0;
    cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, dev);
    cudaDeviceGetAttribute(&numSms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, twoPhase, 128, 0);
    if (!supports) { printf("no coop\n"); return 0; }
    float *data, *sums;
    int n = 1 << 16;
    cudaMalloc(&data, n * sizeof(float));
    cudaMalloc(&sums, sizeof(float));
    void* args[] = {&data, &sums, &n};
    dim3 grid(numSms * perSm), block(128);
    cudaError_t err = cudaLaunchCooperativeKernel((void*)twoPhase, grid, block, args, 0, 0);
    if (err != cudaSuccess) printf("%s\n", cudaGetErrorName(err));
    cudaDeviceSynchronize();
    return 0;
}
