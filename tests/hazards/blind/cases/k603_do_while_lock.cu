__global__ void crit2(int* lock, int* counter) {
  int old;
  do {
    old = atomicCAS(lock, 0, 1);
  } while (old != 0);
  (*counter)++;
  atomicExch(lock, 0);
}
