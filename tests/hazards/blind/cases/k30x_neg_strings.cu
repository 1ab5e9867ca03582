#include <cstdio>
__global__ void not_asm(const char* msg) {
  const char* s = "mov.u32 %0, %%laneid;";
  printf("%s wgmma.fence %s\n", s, msg);
}
// asm volatile("prmt.b32 %0, %1, 0, 0x0123;"); in a comment
