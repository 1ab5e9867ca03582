// CRLF line endings are kept
#include <hip/hip_runtime.h>
void f(void* p) {
    hipFree(p);
}
