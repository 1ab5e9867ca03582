// Vector addition: cudaMalloc in this comment must stay.
#include "hip/hip_runtime.h"
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
int main() {
    const int n = 1024;
    float *a, *b, *c;
    hipMalloc(&a, n * sizeof(float));
    hipMalloc(&b, n * sizeof(float));
    hipMalloc(&c, n * sizeof(float));
    add<<<(n + 255) / 256, 256>>>(a, b, c, n);
    hipError_t err = hipDeviceSynchronize();
    if (err != hipSuccess) printf("cudaDeviceSynchronize: %s\n", hipGetErrorString(err));
    hipFree(a); hipFree(b); hipFree(c);
    return 0;
}
