__global__ void k(int* data, int n) { int i = 0; while (i < n) { data[i] = 0; i++; } }
