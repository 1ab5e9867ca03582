// CUB device-wide primitives (rocPRIM-backed in hipCUB): DeviceRadixSort::SortPairs, DeviceSelect::Flagged,
// DeviceRunLengthEncode::Encode and DeviceScan::InclusiveSum, each with its two-call temp-storage protocol.
#include "common.cuh"
#include <cub/cub.cuh>

int main() {
    const int n = 1000;
    int hkeys[n], hvals[n], hflags[n];
    for (int i = 0; i < n; ++i) {
        hkeys[i] = (i * 37) % 10;  // ten distinct keys, a hundred of each
        hvals[i] = i;
        hflags[i] = i % 3 == 0;
    }
    int *keys, *vals, *keys_out, *vals_out, *flags, *selected, *num_selected, *unique, *counts, *num_runs, *scan;
    CHECK_CUDA(cudaMalloc(&keys, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&vals, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&keys_out, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&vals_out, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&flags, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&selected, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&num_selected, sizeof(int)));
    CHECK_CUDA(cudaMalloc(&unique, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&counts, n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&num_runs, sizeof(int)));
    CHECK_CUDA(cudaMalloc(&scan, n * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(keys, hkeys, sizeof hkeys, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(vals, hvals, sizeof hvals, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(flags, hflags, sizeof hflags, cudaMemcpyHostToDevice));

    void* temp = nullptr;
    size_t bytes = 0, most = 0;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(temp, bytes, keys, keys_out, vals, vals_out, n));
    most = bytes > most ? bytes : most;
    CHECK_CUDA(cub::DeviceSelect::Flagged(nullptr, bytes, vals, flags, selected, num_selected, n));
    most = bytes > most ? bytes : most;
    CHECK_CUDA(cub::DeviceRunLengthEncode::Encode(nullptr, bytes, keys_out, unique, counts, num_runs, n));
    most = bytes > most ? bytes : most;
    CHECK_CUDA(cub::DeviceScan::InclusiveSum(nullptr, bytes, counts, scan, 10));
    most = bytes > most ? bytes : most;
    CHECK_CUDA(cudaMalloc(&temp, most));
    bytes = most;
    CHECK_CUDA(cub::DeviceRadixSort::SortPairs(temp, bytes, keys, keys_out, vals, vals_out, n));
    bytes = most;
    CHECK_CUDA(cub::DeviceSelect::Flagged(temp, bytes, vals, flags, selected, num_selected, n));
    bytes = most;
    CHECK_CUDA(cub::DeviceRunLengthEncode::Encode(temp, bytes, keys_out, unique, counts, num_runs, n));
    bytes = most;
    CHECK_CUDA(cub::DeviceScan::InclusiveSum(temp, bytes, counts, scan, 10));

    int hk[n], hv[n], hsel[n], hnsel = 0, huniq[10], hcounts[10], hruns = 0, hscan[10];
    CHECK_CUDA(cudaMemcpy(hk, keys_out, sizeof hk, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hv, vals_out, sizeof hv, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hsel, selected, sizeof hsel, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&hnsel, num_selected, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(huniq, unique, sizeof huniq, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hcounts, counts, sizeof hcounts, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(&hruns, num_runs, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hscan, scan, sizeof hscan, cudaMemcpyDeviceToHost));
    bool ok = hnsel == (n + 2) / 3 && hruns == 10;
    for (int i = 1; i < n; ++i)  // sorted by key; the sort is stable, so values rise within a key
        ok = ok && (hk[i - 1] < hk[i] || (hk[i - 1] == hk[i] && hv[i - 1] < hv[i]));
    for (int i = 0; i < n; ++i) ok = ok && hkeys[hv[i]] == hk[i];
    for (int i = 0; i < hnsel; ++i) ok = ok && hsel[i] == 3 * i;
    for (int k = 0; k < 10; ++k) ok = ok && huniq[k] == k && hcounts[k] == 100 && hscan[k] == 100 * (k + 1);
    std::printf("sorted %d..%d, selected %d, runs %d, last prefix %d\n", hk[0], hk[n - 1], hnsel, hruns, hscan[9]);
    cudaFree(temp); cudaFree(keys); cudaFree(vals); cudaFree(keys_out); cudaFree(vals_out); cudaFree(flags);
    cudaFree(selected); cudaFree(num_selected); cudaFree(unique); cudaFree(counts); cudaFree(num_runs);
    cudaFree(scan);
    return report("cub_device_select", ok);
}
