__device__ void lock(int* m) {
  do { } while (atomicCAS(m, 0, 1) != 0);
}
