#ifndef LN_CONFIG_H
#define LN_CONFIG_H

#define LN_THREADS 256
#define LN_SMALL_COLS 4096
#define LN_MAX_COLS 20480

// The row is cached in dynamic shared memory between the two passes.
#define LN_SMALL_SMEM_BYTES (LN_SMALL_COLS * sizeof(float))
#define LN_SMEM_BYTES (LN_MAX_COLS * sizeof(float))

#endif  // LN_CONFIG_H
