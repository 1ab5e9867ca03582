#ifdef __CUDACC__
#define HD __host__ __device__
#else
#define HD
#endif
#if defined(__HIP_DEVICE_COMPILE__)
#define ON_DEVICE 1
#endif
HD int twice(int x) { return 2 * x; }
