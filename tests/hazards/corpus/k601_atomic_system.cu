__global__ void k(int* counter) { atomicAdd_system(counter, 1); }
