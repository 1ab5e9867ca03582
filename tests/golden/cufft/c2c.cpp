#include <cufft.h>
int fft(cufftComplex* data, int n) {
    cufftHandle plan;
    if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS) return 1;
    cufftExecC2C(plan, data, data, CUFFT_FORWARD);
    cufftDestroy(plan);
    return 0;
}
