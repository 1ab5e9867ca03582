#if defined(__HIP_DEVICE_COMPILE__)
#define DEV 1
#endif
