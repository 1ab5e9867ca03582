#ifndef BUILD_FLAGS_H
#define BUILD_FLAGS_H
// Written by the configure step for the sm_90 build.
#define USE_BIG_TILES 1
#endif
