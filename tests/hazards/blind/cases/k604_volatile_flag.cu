__global__ void wait_flag(volatile int* flag) {
  while (*flag == 0) { }
}
