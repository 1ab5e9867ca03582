// Thrust: device_vector, sort, unique, reduce, and a cuda::par execution policy on a stream.
#include "common.cuh"
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/unique.h>
#include <thrust/reduce.h>
#include <thrust/system/cuda/execution_policy.h>

int main() {
    thrust::host_vector<int> h(10000);
    for (int i = 0; i < (int)h.size(); ++i) h[i] = (i * 7919) % 1000;
    thrust::device_vector<int> d = h;
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    thrust::sort(thrust::cuda::par.on(s), d.begin(), d.end());
    CHECK_CUDA(cudaStreamSynchronize(s));
    bool sorted = thrust::is_sorted(d.begin(), d.end());
    long long total = thrust::reduce(d.begin(), d.end(), 0LL);
    auto end = thrust::unique(d.begin(), d.end());
    int distinct = (int)(end - d.begin());
    std::printf("sorted %s, total %lld, distinct %d, first %d\n", sorted ? "yes" : "no", total, distinct, (int)d[0]);
    CHECK_CUDA(cudaStreamDestroy(s));
    return report("thrust_sort", sorted && distinct == 1000 && total == 4995000);
}
