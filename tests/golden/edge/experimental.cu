// cuda2rocm-options: --target-rocm 6.3
#include <cuda_runtime.h>
void upd(cudaGraphExec_t e, cudaGraphNode_t n, cudaGraphNodeParams* p) { cudaGraphExecNodeSetParams(e, n, p); }
