// cuFFT: 1D complex-to-complex forward + inverse transform; the round trip scales by N.
#include "common.cuh"
#include <cufft.h>
#include <cmath>

int main() {
    const int n = 256;
    cufftComplex h[n];
    for (int i = 0; i < n; ++i) { h[i].x = std::cos(2 * M_PI * 3 * i / n); h[i].y = 0.0f; }
    cufftComplex* d;
    CHECK_CUDA(cudaMalloc(&d, sizeof(h)));
    CHECK_CUDA(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
    cufftHandle plan;
    bool ok = cufftPlan1d(&plan, n, CUFFT_C2C, 1) == CUFFT_SUCCESS;
    ok = ok && cufftExecC2C(plan, d, d, CUFFT_FORWARD) == CUFFT_SUCCESS;
    cufftComplex spectrum[n];
    CHECK_CUDA(cudaMemcpy(spectrum, d, sizeof(spectrum), cudaMemcpyDeviceToHost));
    ok = ok && cufftExecC2C(plan, d, d, CUFFT_INVERSE) == CUFFT_SUCCESS;
    cufftComplex back[n];
    CHECK_CUDA(cudaMemcpy(back, d, sizeof(back), cudaMemcpyDeviceToHost));
    double err = 0;
    for (int i = 0; i < n; ++i) err = std::fmax(err, std::fabs(back[i].x / n - h[i].x));
    std::printf("bin 3 = %.1f, round-trip error < 1e-5: %s\n", spectrum[3].x, err < 1e-5 ? "yes" : "no");
    ok = ok && std::fabs(spectrum[3].x - n / 2.0) < 1e-3 && err < 1e-5;
    cufftDestroy(plan); cudaFree(d);
    return report("cufft_roundtrip", ok);
}
