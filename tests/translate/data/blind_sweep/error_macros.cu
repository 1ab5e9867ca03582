// Pattern: the common error-handling helpers: an inline gpuAssert(code, file, line, abort) function behind
// a gpuErrchk macro, cudaPeekAtLastError after launches, cudaGetErrorName, cudaDeviceReset on failure,
// and a switch over specific cudaError_t values.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define gpuErrchk(ans) { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(cudaError_t code, const char* file, int line, bool abort = true) {
    if (code != cudaSuccess) {
        fprintf(stderr, "GPUassert: %s %s %s %d\n", cudaGetErrorName(code), cudaGetErrorString(code), file, line);
        if (abort) { cudaDeviceReset(); exit(code); }
    }
}

static const char* classify(cudaError_t e) {
    switch (e) {
        case cudaErrorMemoryAllocation: return "oom";
        case cudaErrorInvalidValue: return "bad value";
        case cudaErrorInvalidDevicePointer: return "bad pointer";
        case cudaErrorLaunchFailure: return "launch";
        case cudaErrorIllegalAddress: return "illegal address";
        case cudaErrorNoDevice: return "no device";
        default: return "other";
    }
}

__global__ void k(int* p) { p[threadIdx.x] = threadIdx.x; }

int main() {
    int* p;
    gpuErrchk(cudaMalloc(&p, 256 * sizeof(int)));
    k<<<1, 256>>>(p);
    gpuErrchk(cudaPeekAtLastError());
    gpuErrchk(cudaDeviceSynchronize());
    void* huge;
    cudaError_t e = cudaMalloc(&huge, (size_t)1 << 62);
    printf("%s\n", classify(e));
    cudaGetLastError();
    gpuErrchk(cudaFree(p));
    return 0;
}
