#if CUDART_VERSION >= 11000
#include <cuda_bf16.h>
#endif
int f() { return 1; }
