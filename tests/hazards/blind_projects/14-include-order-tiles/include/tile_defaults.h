#ifndef TILE_DEFAULTS_H
#define TILE_DEFAULTS_H

// Defaults; a translation unit may pick other values before including this.
#ifndef SMEM_TILE
#define SMEM_TILE 64
#endif

#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

#endif  // TILE_DEFAULTS_H
