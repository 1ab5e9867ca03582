#pragma once
// Launch shapes shared by the utility kernels.
#define TRANSPOSE_TILE 64
#define MAX_THREADS_PER_BLOCK 2048
#define GRID_CAP 4096
