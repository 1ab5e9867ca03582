__global__ void popcount(const unsigned* w, int* out) {
  out[threadIdx.x] = __popc(w[threadIdx.x]);
  out[threadIdx.x] += __ffs(w[threadIdx.x] ^ 1u);
}
