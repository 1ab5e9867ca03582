__device__ int f(int v) { return __any_sync(~0u, v != 0); }
