__global__ void k(int* flag) { while (*(volatile int*)flag == 0); }
