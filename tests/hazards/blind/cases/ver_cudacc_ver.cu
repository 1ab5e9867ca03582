#if __CUDACC_VER_MAJOR__ >= 12
#define USE_NEW_API 1
#endif
int api_level() { return 1; }
