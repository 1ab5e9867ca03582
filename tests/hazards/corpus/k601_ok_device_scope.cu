__global__ void k(int* counter) { atomicAdd(counter, 1); __threadfence(); }
