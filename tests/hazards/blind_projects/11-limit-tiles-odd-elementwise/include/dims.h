#ifndef DIMS_H
#define DIMS_H

#define VEC_BLOCK 96
#define PACK_TILE 128
#define PACK_BX 32
#define PACK_BY 8

#endif
