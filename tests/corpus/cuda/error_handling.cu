// Error handling: a failing call is reported, sticky vs. non-sticky errors, cudaGetErrorName.
#include "common.cuh"

__global__ void noop() {}

int main() {
    bool ok = true;
    float* p = nullptr;
    cudaError_t e = cudaMemcpy(p, p, 16, cudaMemcpyHostToDevice);  // null pointers: invalid value
    std::printf("null memcpy -> %s\n", e == cudaSuccess ? "success" : "error");
    ok = ok && e != cudaSuccess;
    cudaGetLastError();  // clear
    noop<<<1, 1>>>();
    e = cudaGetLastError();
    std::printf("noop launch -> %s\n", cudaGetErrorName(e));
    ok = ok && e == cudaSuccess;
    noop<<<1, 100000>>>();  // too many threads per block
    e = cudaGetLastError();
    std::printf("oversized launch -> %s\n", e == cudaSuccess ? "success" : "error");
    ok = ok && e != cudaSuccess;
    CHECK_CUDA(cudaDeviceSynchronize());
    return report("error_handling", ok);
}
