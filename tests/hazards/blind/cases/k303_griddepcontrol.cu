__device__ void pdl_wait() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}
