__device__ float fast_path(float x) {
#if __CUDA_ARCH__ >= 800
  return x * 2.0f;
#else
  return x;
#endif
}
