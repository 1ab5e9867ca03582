#include <cuda_runtime.h>
unsigned long long pack2(cudaSurfaceObject_t s, unsigned v) { return s | ((unsigned long long)v << 32); }
