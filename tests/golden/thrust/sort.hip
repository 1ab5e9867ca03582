#include "hip/hip_runtime.h"
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/execution_policy.h>
void sort(thrust::device_vector<int>& v, hipStream_t s) {
    thrust::sort(thrust::hip::par.on(s), v.begin(), v.end());
}
