// cuda2rocm-options: --target-rocm 6.3 --experimental
#include <hip/hip_runtime.h>
void upd(hipGraphExec_t e, hipGraphNode_t n, hipGraphNodeParams* p) { hipGraphExecNodeSetParams(e, n, p); }
