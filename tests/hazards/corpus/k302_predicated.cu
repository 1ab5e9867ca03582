__device__ void f(int* p, bool c) {
  asm volatile("{\n .reg .pred q;\n setp.ne.b32 q, %1, 0;\n @q st.global.wb.u32 [%0], 1;\n}" :: "l"(p), "r"((int)c));
}
