__device__ int total(int v) { return __reduce_add_sync(0xffffffffffffffffULL, v); }
