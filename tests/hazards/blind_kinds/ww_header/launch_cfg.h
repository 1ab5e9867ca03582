#pragma once

#define LANES_PER_WARP 32
#define ROWS_PER_BLOCK 4
