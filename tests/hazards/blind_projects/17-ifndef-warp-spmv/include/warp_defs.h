#ifndef WARP_DEFS_H
#define WARP_DEFS_H

#ifndef WARP_SIZE
#define WARP_SIZE 32
#endif

#define FULL_MASK 0xFFFFFFFFu
#define SPMV_BLOCK 224

#endif  // WARP_DEFS_H
