__global__ void k(int* raw) {
  volatile int* ready = raw;
  while (ready[blockIdx.x] != 1);
}
