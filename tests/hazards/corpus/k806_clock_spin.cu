__global__ void delay(long long cycles, int* done) {
  long long start = clock64();
  while (clock64() - start < cycles) { }
  done[blockIdx.x] = 1;
}
