__global__ void paint(unsigned* px, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) px[i] = 0xFFFFFFFFu;
}
