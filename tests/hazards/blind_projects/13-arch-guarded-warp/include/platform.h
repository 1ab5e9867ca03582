#ifndef PLATFORM_H
#define PLATFORM_H

#if defined(__HIP_PLATFORM_AMD__) || defined(__GFX9__)
#define WARP_SIZE 64
#else
#define WARP_SIZE 32
#endif

#if 0
// 32-lane vote mask of the first CUDA-only version.
#define VOTE_MASK 0xffffffffu
#else
#define VOTE_MASK 0xffffffffffffffffull
#endif

#define FILTER_THREADS 256

#endif  // PLATFORM_H
