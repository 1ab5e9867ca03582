__device__ void lock(int* mutex) { while (atomicCAS(mutex, 0, 1) != 0); }
