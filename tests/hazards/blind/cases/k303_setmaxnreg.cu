__device__ void more_regs() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 240;");
}
