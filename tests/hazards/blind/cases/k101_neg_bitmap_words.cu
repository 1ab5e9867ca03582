__global__ void set_bits(unsigned* bitmap, const int* keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = keys[i];
  int word = k / 32;
  int bit = k & 31;
  atomicOr(&bitmap[word], 1u << bit);
}
