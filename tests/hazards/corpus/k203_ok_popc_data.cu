__device__ int bits(unsigned x) { return __popc(x); }
