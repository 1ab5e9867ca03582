#ifndef SCAN_PARAMS_H
#define SCAN_PARAMS_H

static const int THREADS_PER_WARP = 32;

#define SCAN_BLOCK 512
#define SCAN_MASK 0xffffffffu

#endif
