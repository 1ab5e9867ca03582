__global__ void k(int* out, const unsigned* words) { out[threadIdx.x] = __ffs(words[threadIdx.x]); }
