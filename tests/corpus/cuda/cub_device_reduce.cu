// CUB device-wide primitives: DeviceReduce::Sum and DeviceScan::ExclusiveSum with temp storage queries.
#include "common.cuh"
#include <cub/cub.cuh>

int main() {
    const int n = 100000;
    int* h = new int[n];
    for (int i = 0; i < n; ++i) h[i] = i % 3;
    int *in, *out, *scan;
    CHECK_CUDA(cudaMalloc(&in, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&out, sizeof(int)));
    CHECK_CUDA(cudaMalloc(&scan, n * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    void* temp = nullptr;
    size_t bytes = 0;
    CHECK_CUDA(cub::DeviceReduce::Sum(temp, bytes, in, out, n));
    CHECK_CUDA(cudaMalloc(&temp, bytes));
    CHECK_CUDA(cub::DeviceReduce::Sum(temp, bytes, in, out, n));
    CHECK_CUDA(cudaFree(temp));
    temp = nullptr;
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(temp, bytes, in, scan, n));
    CHECK_CUDA(cudaMalloc(&temp, bytes));
    CHECK_CUDA(cub::DeviceScan::ExclusiveSum(temp, bytes, in, scan, n));
    int total = 0, last = 0;
    CHECK_CUDA(cudaMemcpy(&total, out, sizeof total, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&last, scan + n - 1, sizeof last, cudaMemcpyDeviceToHost));
    std::printf("sum = %d, exclusive[n-1] = %d\n", total, last);
    bool ok = total == 99999 && last == total - h[n - 1];
    cudaFree(temp); cudaFree(in); cudaFree(out); cudaFree(scan); delete[] h;
    return report("cub_device_reduce", ok);
}
