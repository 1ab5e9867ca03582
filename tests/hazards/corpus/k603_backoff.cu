__device__ void lock(int* m) {
  while (atomicCAS(m, 0, 1) != 0) { __nanosleep(32); }
}
