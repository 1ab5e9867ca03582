#define MYLIB_VERSION 20300
#if MYLIB_VERSION >= 20000
int new_api() { return 2; }
#endif
