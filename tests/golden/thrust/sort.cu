#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/execution_policy.h>
void sort(thrust::device_vector<int>& v, cudaStream_t s) {
    thrust::sort(thrust::cuda::par.on(s), v.begin(), v.end());
}
