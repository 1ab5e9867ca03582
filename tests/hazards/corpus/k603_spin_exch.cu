__device__ void lock(int* m) {
  while (atomicExch(m, 1) == 1) { }
}
