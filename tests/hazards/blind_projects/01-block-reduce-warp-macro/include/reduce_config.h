// Tuning knobs shared by the reduction kernels.
#ifndef REDUCE_CONFIG_H
#define REDUCE_CONFIG_H

#define WARP_SIZE 32
#define FULL_MASK 0xffffffff
#define BLOCK_THREADS 256
#define MAX_BLOCKS 1024

#endif  // REDUCE_CONFIG_H
