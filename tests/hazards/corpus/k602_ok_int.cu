__global__ void k(int* hist, const int* bins) { atomicAdd(&hist[bins[threadIdx.x]], 1); }
