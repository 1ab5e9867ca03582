#include <hip/hip_runtime.h>
int copy_in(const float* h, size_t n) {
    hipDeviceptr_t d;
    if (hipMalloc(&d, n * sizeof(float)) != hipSuccess) return 1;
    hipMemcpyHtoD(d, h, n * sizeof(float));
    hipFree(d);
    return 0;
}
