// cuComplex: complex multiply-accumulate in a kernel (make_cuFloatComplex, cuCmulf, cuCaddf, cuCabsf).
#include "common.cuh"
#include <cuComplex.h>

__global__ void rotate(const cuFloatComplex* x, cuFloatComplex* y, cuFloatComplex w, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = cuCaddf(cuCmulf(x[i], w), make_cuFloatComplex(1.0f, 0.0f));
}

int main() {
    const int n = 256;
    cuFloatComplex hx[n], hy[n];
    for (int i = 0; i < n; ++i) hx[i] = make_cuFloatComplex((float)i, (float)-i);
    cuFloatComplex *x, *y;
    CHECK_CUDA(cudaMalloc(&x, sizeof(hx)));
    CHECK_CUDA(cudaMalloc(&y, sizeof(hy)));
    CHECK_CUDA(cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice));
    rotate<<<2, 128>>>(x, y, make_cuFloatComplex(0.0f, 1.0f), n);  // multiply by i
    CHECK_CUDA(cudaMemcpy(hy, y, sizeof(hy), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = ok && cuCrealf(hy[i]) == i + 1.0f && cuCimagf(hy[i]) == (float)i;
    std::printf("|y[3]| = %.4f\n", cuCabsf(hy[3]));
    cudaFree(x); cudaFree(y);
    return report("complex_ops", ok);
}
