__device__ int try_lock(int* l) { return atomicCAS_system(l, 0, 1) == 0; }
