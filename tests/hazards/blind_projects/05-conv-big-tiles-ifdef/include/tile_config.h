#ifndef TILE_CONFIG_H
#define TILE_CONFIG_H

#include "build_flags.h"

#ifdef USE_BIG_TILES
#define TILE_H 128
#define TILE_W 128
#else
#define TILE_H 32
#define TILE_W 32
#endif

#define KSIZE 9
#define HALO (KSIZE / 2)
#define CONV_BX 32
#define CONV_BY 8

#endif  // TILE_CONFIG_H
