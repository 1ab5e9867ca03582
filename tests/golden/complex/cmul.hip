#include "hip/hip_runtime.h"
#include <hip/hip_complex.h>
__device__ hipFloatComplex cmul(hipFloatComplex a, hipFloatComplex b) {
    return hipCaddf(hipCmulf(a, b), make_hipFloatComplex(hipCrealf(a), 0.f));
}
