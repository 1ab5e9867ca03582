#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <cuda_runtime.h>

namespace libgemm {

void topk(float* scores, int* indices, int n, cudaStream_t stream) {
  thrust::device_ptr<float> keys(scores);
  thrust::device_ptr<int> values(indices);
  thrust::sequence(thrust::cuda::par.on(stream), values, values + n);
  thrust::sort_by_key(thrust::cuda::par.on(stream), keys, keys + n, values, thrust::greater<float>());
}

}  // namespace libgemm
