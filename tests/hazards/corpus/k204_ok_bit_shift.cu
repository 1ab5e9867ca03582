__device__ unsigned bit(int i) { return 1u << i; }
