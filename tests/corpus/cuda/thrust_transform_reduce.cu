// Thrust: transform_reduce with a device lambda-free functor, counting_iterator, inclusive_scan.
#include "common.cuh"
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>
#include <thrust/functional.h>
#include <thrust/scan.h>

struct square {
    __host__ __device__ double operator()(int x) const { return (double)x * x; }
};

int main() {
    const int n = 1000;
    thrust::counting_iterator<int> first(1);
    double sum_sq = thrust::transform_reduce(first, first + n, square(), 0.0, thrust::plus<double>());
    thrust::device_vector<int> v(first, first + n);
    thrust::inclusive_scan(v.begin(), v.end(), v.begin());
    int last = v[n - 1];
    std::printf("sum of squares %.0f, prefix total %d\n", sum_sq, last);
    return report("thrust_transform_reduce", sum_sq == 333833500.0 && last == 500500);
}
