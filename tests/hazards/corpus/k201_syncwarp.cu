__device__ void sync_lanes() { __syncwarp(0xffffffff); }
