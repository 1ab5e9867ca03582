#if FAST_PATH
#define PATH 1
#elif __CUDA_ARCH__ >= 900
#define PATH 2
#endif
