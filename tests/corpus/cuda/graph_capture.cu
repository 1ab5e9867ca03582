// CUDA graphs: capture a stream into a graph, instantiate it (CUDA 12+ signature) and replay it.
#include "common.cuh"

__global__ void add_one(int* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] += 1;
}

int main() {
    const int n = 1024;
    int* d;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
    CHECK_CUDA(cudaMemset(d, 0, n * sizeof(int)));
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    cudaGraph_t graph;
    CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (int k = 0; k < 3; ++k) add_one<<<n / 256, 256, 0, s>>>(d, n);
    CHECK_CUDA(cudaStreamEndCapture(s, &graph));
    size_t nodes = 0;
    CHECK_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));
    cudaGraphExec_t exec;
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < 4; ++r) CHECK_CUDA(cudaGraphLaunch(exec, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    int h[n];
    CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    bool ok = nodes == 3;
    for (int i = 0; i < n; ++i) ok = ok && h[i] == 12;
    std::printf("nodes = %zu value = %d\n", nodes, h[0]);
    cudaGraphExecDestroy(exec); cudaGraphDestroy(graph); cudaStreamDestroy(s); cudaFree(d);
    return report("graph_capture", ok);
}
