#if !defined(__CUDA_ARCH__)
#define HOST_ONLY 1
#endif
