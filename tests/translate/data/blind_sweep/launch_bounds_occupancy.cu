// Pattern: __launch_bounds__(maxThreads, minBlocksPerSM) on a hot kernel, block size picked with
// cudaOccupancyMaxPotentialBlockSize, and per-SM occupancy printed from cudaDeviceProp.
#include <cuda_runtime.h>
#include <cstdio>

#define MAX_THREADS 256
#define MIN_BLOCKS 4

__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS) relu(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] > 0.f ? x[i] : 0.f;
}

__global__ void __launch_bounds__(128) copy(const float* __restrict__ a, float* __restrict__ b, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) b[i] = a[i];
}

int main() {
    int minGrid = 0, block = 0, active = 0;
    cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, relu, 0, MAX_THREADS);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, relu, block, 0);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    float occ = (float)(active * block) / prop.maxThreadsPerMultiProcessor;
    printf("block %d grid %d occupancy %.2f\n", block, minGrid, occ);
    float *a, *b;
    int n = 1 << 20;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    relu<<<(n + block - 1) / block, block>>>(a, n);
    copy<<<prop.multiProcessorCount * 4, 128>>>(a, b, n);
    cudaDeviceSynchronize();
    return 0;
}
