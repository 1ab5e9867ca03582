#include <cub/cub.cuh>
__global__ void sum(const int* in, int* out) {
    using BlockReduce = cub::BlockReduce<int, 128>;
    __shared__ typename BlockReduce::TempStorage tmp;
    int v = BlockReduce(tmp).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0) *out = v;
}
