#include <cuda.h>
int copy_in(const float* h, size_t n) {
    CUdeviceptr d;
    if (cuMemAlloc(&d, n * sizeof(float)) != CUDA_SUCCESS) return 1;
    cuMemcpyHtoD(d, h, n * sizeof(float));
    cuMemFree(d);
    return 0;
}
