// Atomics: a 16-bin histogram with a shared-memory privatised copy per block.
#include "common.cuh"

constexpr int BINS = 16;

__global__ void histogram(const unsigned* data, int n, unsigned* bins) {
    __shared__ unsigned local[BINS];
    if (threadIdx.x < BINS) local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] % BINS], 1u);
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
    const int n = 1 << 18;
    unsigned* h = new unsigned[n];
    for (int i = 0; i < n; ++i) h[i] = (unsigned)(i * 7 + i / 3);
    unsigned *d, *bins;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(unsigned)));
    CHECK_CUDA(cudaMalloc(&bins, BINS * sizeof(unsigned)));
    CHECK_CUDA(cudaMemset(bins, 0, BINS * sizeof(unsigned)));
    CHECK_CUDA(cudaMemcpy(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    histogram<<<32, 256>>>(d, n, bins);
    unsigned got[BINS], want[BINS] = {0};
    CHECK_CUDA(cudaMemcpy(got, bins, sizeof(got), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) want[h[i] % BINS]++;
    bool ok = true;
    for (int b = 0; b < BINS; ++b) { ok = ok && got[b] == want[b]; std::printf("%u ", got[b]); }
    std::printf("\n");
    delete[] h; cudaFree(d); cudaFree(bins);
    return report("atomics_histogram", ok);
}
