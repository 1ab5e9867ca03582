#pragma once

#define BOUNDED_KERNEL(max_threads, min_blocks_per_sm) __launch_bounds__(max_threads, min_blocks_per_sm)
#define ROW_SCALE_MIN_BLOCKS 3
