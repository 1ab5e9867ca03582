__global__ void k(int* counter) { atomicAdd_block(counter, 1); __threadfence_block(); }
