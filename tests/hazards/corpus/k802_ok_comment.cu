// #if __CUDA_ARCH__ >= 800 used to be here
__device__ int f() { return 1; }
