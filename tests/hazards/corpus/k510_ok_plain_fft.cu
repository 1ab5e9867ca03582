#include <cufft.h>
void run(cufftHandle plan, cufftReal* in, cufftComplex* out) { cufftExecR2C(plan, in, out); }
