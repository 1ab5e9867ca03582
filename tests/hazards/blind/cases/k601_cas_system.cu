__global__ void claim(int* slot) {
  int prev = atomicCAS_system(slot, 0, (int)blockIdx.x + 1);
  (void)prev;
}
