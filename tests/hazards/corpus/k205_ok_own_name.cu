__device__ int reduce_add(int v) { return v; }
__device__ int my_reduce_add_sync(int v) { return reduce_add(v); }
