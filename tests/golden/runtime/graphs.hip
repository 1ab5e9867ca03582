#include <hip/hip_runtime.h>
__global__ void step(float* x) { x[threadIdx.x] += 1.f; }
void run_graph(float* d, hipStream_t s) {
    hipGraph_t graph;
    hipGraphExec_t exec;
    hipStreamBeginCapture(s, hipStreamCaptureModeGlobal);
    step<<<1, 32, 0, s>>>(d);
    hipStreamEndCapture(s, &graph);
    hipGraphInstantiateWithFlags(&exec, graph, 0);
    hipGraphLaunch(exec, s);
    hipGraphExecDestroy(exec);
    hipGraphDestroy(graph);
}
