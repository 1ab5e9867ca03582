#ifndef KERNEL_DIMS_H
#define KERNEL_DIMS_H

// Three warps per row for short rows, five for long rows.
#define ROW_THREADS 96
#define WIDE_ROW_THREADS 160
#define WIDE_ROW_MIN_COLS 3072

#define SHFL_MASK 0xffffffffu

#endif  // KERNEL_DIMS_H
