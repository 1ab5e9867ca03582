__device__ void fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
