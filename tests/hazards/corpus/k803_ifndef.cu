#ifndef __CUDA_ARCH__
#include <cstdio>
#endif
