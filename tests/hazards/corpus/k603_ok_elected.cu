__global__ void k(int* lock, int* n) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) { }
    (*n)++;
    atomicExch(lock, 0);
  }
}
