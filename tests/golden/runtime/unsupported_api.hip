#include <hip/hip_runtime.h>
void legacy(double* d) {
    cudaSetDoubleForDevice(d);       // no HIP equivalent: kept and reported
    hipDeviceSynchronize();         // deprecated in CUDA: maps to hipDeviceSynchronize
    cudaNotARealApi(d);              // unknown: reported, kept
}
