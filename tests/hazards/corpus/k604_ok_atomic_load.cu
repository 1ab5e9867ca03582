__global__ void k(int* flag) { while (atomicAdd(flag, 0) == 0) { } }
