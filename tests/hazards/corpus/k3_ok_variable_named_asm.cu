__device__ int f(int asm_count) { int assembly = asm_count + 1; return assembly; }
