__device__ void acquire(int* m) {
  while (atomicCAS(m, 0, 1) != 0);
}
__device__ void release(int* m) { atomicExch(m, 0); }
