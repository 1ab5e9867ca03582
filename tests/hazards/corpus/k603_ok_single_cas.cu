__device__ bool try_claim(int* slot) { return atomicCAS(slot, 0, 1) == 0; }
