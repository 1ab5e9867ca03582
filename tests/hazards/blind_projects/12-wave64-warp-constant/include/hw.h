#ifndef HW_H
#define HW_H

// This build targets 64-wide wavefront GPUs only.
#define WARP_SIZE 64
#define FULL_MASK 0xffffffffffffffffULL
#define REDUCE_THREADS 256

#endif  // HW_H
