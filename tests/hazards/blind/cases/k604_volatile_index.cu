__global__ void wait_slot(volatile unsigned* flags, int i) {
  while (flags[i] != 1u) ;
}
