#include <hip/hip_runtime.h>
/* cudaMalloc in a block comment stays; so does cudaFree */
void f(void** p) {
    const char* a = "cudaMalloc(p, 4)";           // cudaMalloc in a string stays
    const char* raw = R"(cudaMemcpy "quoted")";
    char c = 'c';
    hipMalloc(p, 4);  // but this call changes
    (void)a; (void)raw; (void)c;
}
