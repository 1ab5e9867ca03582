// Pattern: bit manipulation intrinsics used by hashing/bitset kernels: __popc, __popcll, __clz, __clzll,
// __ffs, __ffsll, __brev, __byte_perm, __funnelshift_l, __umulhi, __mul24, __sad, __usad.
#include <cuda_runtime.h>

__global__ void bits(const unsigned* in, unsigned long long* in64, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i];
    unsigned long long y = in64[i];
    unsigned r = __popc(x) + __popcll(y) + __clz(x) + __clzll(y) + __ffs(x) + __ffsll(y);
    r ^= __brev(x);
    r ^= __byte_perm(x, r, 0x3210);
    r ^= __funnelshift_l(x, r, 7);
    r ^= __umulhi(x, 2654435761u);
    r += __mul24((int)x, 3) + __sad((int)x, 5, 0u) + __usad(x, 9u, 1u);
    r += (unsigned)__umul64hi(y, 0x9E3779B97F4A7C15ull);
    out[i] = r;
}

int main() {
    unsigned *in, *out;
    unsigned long long* in64;
    cudaMalloc(&in, 4096); cudaMalloc(&out, 4096); cudaMalloc(&in64, 8192);
    bits<<<4, 256>>>(in, in64, out, 1024);
    cudaDeviceSynchronize();
    return 0;
}
