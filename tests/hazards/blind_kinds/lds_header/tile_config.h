#pragma once

#define TILE_M 256
#define TILE_K 64
#define SKEW 4
