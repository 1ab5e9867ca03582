__global__ void k(unsigned* px) { px[threadIdx.x] = 0xffffffff; }
