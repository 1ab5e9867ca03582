// __CUDA_ARCH__ paths: a __host__ __device__ function whose device branch is chosen with
// defined(__CUDA_ARCH__), an architecture-dependent path (__CUDA_ARCH__ >= 800) with an exact fallback,
// and __CUDACC__/CUDART_VERSION feature tests; host and device must agree on every result.
#include "common.cuh"

__host__ __device__ inline unsigned int reverse_bits(unsigned int v) {
#if defined(__CUDA_ARCH__)
    return __brev(v);
#else
    unsigned int r = 0;
    for (int b = 0; b < 32; ++b) r |= ((v >> b) & 1u) << (31 - b);
    return r;
#endif
}

__device__ inline int clamp_add(int a, int b) {
#if __CUDA_ARCH__ >= 800
    return min(max(a + b, -1000), 1000);  // the sm_80 path: same value, other order
#else
    return max(min(a + b, 1000), -1000);
#endif
}

__host__ __device__ inline int where() {
#ifdef __CUDA_ARCH__
    return 1;
#else
    return 0;
#endif
}

__global__ void run(const unsigned int* in, unsigned int* rev, int* sums, int* places, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        rev[i] = reverse_bits(in[i]);
        sums[i] = clamp_add((int)in[i] % 1500, 300);
        places[i] = where();
    }
}

int main() {
    const int n = 128;
    unsigned int hin[n], hrev[n];
    int hsum[n], hplace[n];
    for (int i = 0; i < n; ++i) hin[i] = 2654435761u * (i + 1);
    unsigned int *in, *rev;
    int *sums, *places;
    CHECK_CUDA(cudaMalloc(&in, sizeof hin));
    CHECK_CUDA(cudaMalloc(&rev, sizeof hrev));
    CHECK_CUDA(cudaMalloc(&sums, sizeof hsum));
    CHECK_CUDA(cudaMalloc(&places, sizeof hplace));
    CHECK_CUDA(cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice));
    run<<<1, n>>>(in, rev, sums, places, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(hrev, rev, sizeof hrev, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hsum, sums, sizeof hsum, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(hplace, places, sizeof hplace, cudaMemcpyDeviceToHost));
    bool ok = where() == 0;
    for (int i = 0; i < n; ++i) {
        int expected = (int)hin[i] % 1500 + 300;
        expected = expected > 1000 ? 1000 : expected < -1000 ? -1000 : expected;
        ok = ok && hrev[i] == reverse_bits(hin[i]) && hsum[i] == expected && hplace[i] == 1;
    }
#if defined(__CUDACC__) && defined(CUDART_VERSION)
    const char* compiler = "defined";
#else
    const char* compiler = "missing";
#endif
    std::printf("compiler and runtime macros %s; reverse_bits(1) = %08x, clamp_add(900, 300) = %d\n", compiler,
                reverse_bits(1u), hsum[0] == 1000 ? 1000 : hsum[0]);
    cudaFree(in); cudaFree(rev); cudaFree(sums); cudaFree(places);
    return report("cuda_arch_paths", ok);
}
