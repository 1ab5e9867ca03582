__device__ void regs() { asm volatile("setmaxnreg.inc.sync.aligned.u32 240;\n"); }
