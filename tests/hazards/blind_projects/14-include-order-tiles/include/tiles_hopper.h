#ifndef TILES_HOPPER_H
#define TILES_HOPPER_H
// Larger tiles for GPUs with 228 KiB of shared memory per SM.
#define SMEM_TILE 136
#endif
