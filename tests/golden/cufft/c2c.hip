#include <hipfft/hipfft.h>
int fft(hipfftComplex* data, int n) {
    hipfftHandle plan;
    if (hipfftPlan1d(&plan, n, HIPFFT_C2C, 1) != HIPFFT_SUCCESS) return 1;
    hipfftExecC2C(plan, data, data, HIPFFT_FORWARD);
    hipfftDestroy(plan);
    return 0;
}
