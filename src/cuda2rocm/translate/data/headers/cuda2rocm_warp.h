// cuda2rocm_warp.h - CUDA's __syncwarp for HIP releases that do not declare it (HIP added it in ROCm 7.0).
//
// Written for cuda2rocm; `cuda2rocm convert --target-rocm X` (X < 7.0) inserts it into the files that call
// __syncwarp. Why this is __syncwarp on AMD GPUs, for a 64-wide (or 32-wide) wavefront:
// - CUDA's __syncwarp(mask) makes the lanes in `mask` wait for each other and orders their memory accesses:
//   what a lane wrote before it is visible to the other lanes after it.
// - An AMD wavefront has no independent thread scheduling: its lanes execute each instruction together, so
//   there is nothing to wait for, and the memory operations of one wavefront are performed in program order
//   (the AMDGPU memory model needs no cache or counter wait at wavefront scope).
// - What remains is the compiler: without a barrier it may move a load of another lane's shared-memory slot
//   above the store before it. The release fence, the wave barrier (a code-motion barrier, no instruction)
//   and the acquire fence at "wavefront" scope forbid exactly that, for LDS and global memory alike.
// - The mask is accepted as a 64-bit value (a 32-bit CUDA mask converts) and needs no use: lanes outside it
//   are either in the same instruction stream or inactive, and both are allowed by CUDA's rule that every lane
//   named in the mask calls __syncwarp. Code that meets lanes of two divergent branches at a __syncwarp cannot
//   work on AMD (divergent branches run one after the other); convert reports __syncwarp's hazards (C2R-K2xx).
#ifndef CUDA2ROCM_WARP_H
#define CUDA2ROCM_WARP_H

#if defined(__HIPCC__) || defined(__HIP__)
#include <hip/hip_runtime.h>
#if !defined(HIP_VERSION_MAJOR) || HIP_VERSION_MAJOR < 7
__device__ static inline void __syncwarp(unsigned long long mask = 0xffffffffffffffffull) {
  (void)mask;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
#endif
#endif

#endif  // CUDA2ROCM_WARP_H
