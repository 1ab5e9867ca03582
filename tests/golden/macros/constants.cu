#include <math_constants.h>
#if CUDA_VERSION >= 11000
__device__ float pi() { return CUDART_PI_F; }
#endif
