__device__ float f(float x) {
#if __CUDA_ARCH__ >= 800
  return x * 2.0f;
#else
  return x;
#endif
}
