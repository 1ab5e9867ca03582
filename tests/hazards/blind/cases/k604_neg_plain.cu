__global__ void countdown(int* out, int n) {
  while (n > 0) { out[n] = n; --n; }
}
