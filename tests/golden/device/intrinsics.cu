__global__ void bits(const unsigned* in, int* out) {
    unsigned x = __ldg(&in[threadIdx.x]);
    out[threadIdx.x] = __popc(x) + __clz(x) + __ffs(x);
    __syncthreads();
    atomicCAS(&out[0], 0, 1);
}
