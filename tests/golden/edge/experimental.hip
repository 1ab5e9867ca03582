// cuda2rocm-options: --target-rocm 6.3
#include <hip/hip_runtime.h>
void upd(hipGraphExec_t e, hipGraphNode_t n, hipGraphNodeParams* p) { cudaGraphExecNodeSetParams(e, n, p); }
