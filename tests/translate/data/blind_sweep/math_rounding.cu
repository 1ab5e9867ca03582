// Pattern: numerics code using IEEE-rounded intrinsics and special functions: __fadd_rn/__fmul_rz,
// __fsqrt_rn, __frcp_rn, __fmaf_rn, __dsqrt_rn, sincosf/sincospif, erfcinvf, normcdff, __saturatef,
// copysignf, frexpf/ldexpf, and half max/min (__hmax/__hmin) plus __ldcs/__stcs streaming loads.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void num(const float* x, float* y, double* z, const __half* h, __half* hout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = __ldcs(&x[i]);
    float s, c;
    sincosf(a, &s, &c);
    float sp, cp;
    sincospif(a, &sp, &cp);
    float r = __fadd_rn(__fmul_rz(s, c), __fsqrt_rn(fabsf(a)));
    r = __fmaf_rn(r, __frcp_rn(1.f + a * a), erfcinvf(0.5f) + normcdff(a));
    int e;
    float m = frexpf(r, &e);
    r = ldexpf(m, e) + copysignf(__saturatef(sp + cp), a);
    __stcs(&y[i], r);
    z[i] = __dsqrt_rn((double)r * r) + __drcp_rn(2.0);
    hout[i] = __hmax(h[i], __hmin(h[i], __float2half(r)));
}

int main() {
    float *x, *y; double* z; __half *h, *ho;
    cudaMalloc(&x, 4096); cudaMalloc(&y, 4096); cudaMalloc(&z, 8192); cudaMalloc(&h, 2048); cudaMalloc(&ho, 2048);
    num<<<4, 256>>>(x, y, z, h, ho, 1024);
    cudaDeviceSynchronize();
    return 0;
}
