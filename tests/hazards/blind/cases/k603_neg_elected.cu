__global__ void elected_lock(int* lock, int* counter) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) { }
    (*counter)++;
    atomicExch(lock, 0);
  }
}
