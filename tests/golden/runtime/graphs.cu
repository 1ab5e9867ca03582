#include <cuda_runtime.h>
__global__ void step(float* x) { x[threadIdx.x] += 1.f; }
void run_graph(float* d, cudaStream_t s) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    step<<<1, 32, 0, s>>>(d);
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphLaunch(exec, s);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
}
