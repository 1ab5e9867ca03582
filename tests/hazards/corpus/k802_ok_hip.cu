#if defined(__gfx942__) || defined(__gfx950__)
#define HAS_FP8 1
#endif
