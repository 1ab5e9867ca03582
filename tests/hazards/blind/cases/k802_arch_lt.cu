__device__ int old_arch() {
#if __CUDA_ARCH__ < 700
  return 0;
#endif
  return 1;
}
