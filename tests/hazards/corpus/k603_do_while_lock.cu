__global__ void k(int* lock, int* n) {
  int old;
  do { old = atomicCAS(lock, 0, 1); } while (old != 0);
  (*n)++;
  atomicExch(lock, 0);
}
