#include <cuComplex.h>
__device__ cuFloatComplex cmul(cuFloatComplex a, cuFloatComplex b) {
    return cuCaddf(cuCmulf(a, b), make_cuFloatComplex(cuCrealf(a), 0.f));
}
