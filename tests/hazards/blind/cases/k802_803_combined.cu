__device__ int hopper() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return 1;
#else
  return 0;
#endif
}
