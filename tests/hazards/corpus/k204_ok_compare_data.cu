__global__ void k(unsigned* p) { if (p[0] == 0xffffffff) p[1] = 0; }
