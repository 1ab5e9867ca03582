#include <cuda.h>
#if CUDA_VERSION >= 11000
#include <cuda_bf16.h>
#define HAVE_BF16 1
#endif
