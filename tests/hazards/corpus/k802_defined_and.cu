#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#error "needs Volta"
#endif
