// CUDA graphs built from explicit nodes (memset -> kernel -> memcpy with dependencies), instantiated,
// launched, then updated in place (cudaGraphExecKernelNodeSetParams) and launched again; a second graph is
// captured from a stream and instantiated with cudaGraphInstantiateWithFlags.
#include "common.cuh"

__global__ void axpb(float* v, float a, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = a * (v[i] + i) + b;
}

__global__ void add_one(float* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += 1.0f;
}

int main() {
    const int n = 256;
    float *d, h[n];
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreate(&stream));

    cudaGraph_t graph;
    CHECK_CUDA(cudaGraphCreate(&graph, 0));
    cudaMemsetParams mset = {};
    mset.dst = d;
    mset.value = 0;
    mset.elementSize = sizeof(float);
    mset.width = n;
    mset.height = 1;
    cudaGraphNode_t memset_node, kernel_node, copy_node;
    CHECK_CUDA(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &mset));
    float a = 2.0f, b = 1.0f;
    int count = n;
    void* args[] = {&d, &a, &b, &count};
    cudaKernelNodeParams kp = {};
    kp.func = (void*)axpb;
    kp.gridDim = dim3(n / 64);
    kp.blockDim = dim3(64);
    kp.sharedMemBytes = 0;
    kp.kernelParams = args;
    kp.extra = nullptr;
    CHECK_CUDA(cudaGraphAddKernelNode(&kernel_node, graph, &memset_node, 1, &kp));
    CHECK_CUDA(cudaGraphAddMemcpyNode1D(&copy_node, graph, &kernel_node, 1, h, d, n * sizeof(float),
                                        cudaMemcpyDeviceToHost));
    size_t nodes = 0;
    CHECK_CUDA(cudaGraphGetNodes(graph, nullptr, &nodes));

    cudaGraphExec_t exec;
    CHECK_CUDA(cudaGraphInstantiateWithFlags(&exec, graph, 0));
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    bool first = true;
    for (int i = 0; i < n; ++i) first = first && h[i] == 2.0f * i + 1.0f;

    a = 3.0f;  // kernel parameters are copied when set: update the instantiated graph, then relaunch
    b = -1.0f;
    CHECK_CUDA(cudaGraphExecKernelNodeSetParams(exec, kernel_node, &kp));
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    bool updated = true;
    for (int i = 0; i < n; ++i) updated = updated && h[i] == 3.0f * i - 1.0f;

    cudaGraph_t captured;
    cudaGraphExec_t captured_exec;
    CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    for (int k = 0; k < 3; ++k) add_one<<<n / 64, 64, 0, stream>>>(d, n);
    CHECK_CUDA(cudaStreamEndCapture(stream, &captured));
    CHECK_CUDA(cudaGraphInstantiateWithFlags(&captured_exec, captured, 0));
    CHECK_CUDA(cudaGraphLaunch(captured_exec, stream));
    CHECK_CUDA(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    bool replayed = true;
    for (int i = 0; i < n; ++i) replayed = replayed && h[i] == 3.0f * i + 2.0f;

    std::printf("nodes %zu, first launch %s, after update %s, captured replay %s\n", nodes, first ? "ok" : "wrong",
                updated ? "ok" : "wrong", replayed ? "ok" : "wrong");
    CHECK_CUDA(cudaGraphExecDestroy(captured_exec));
    CHECK_CUDA(cudaGraphDestroy(captured));
    CHECK_CUDA(cudaGraphExecDestroy(exec));
    CHECK_CUDA(cudaGraphDestroy(graph));
    CHECK_CUDA(cudaStreamDestroy(stream));
    CHECK_CUDA(cudaFree(d));
    return report("graph_explicit_update", nodes == 3 && first && updated && replayed);
}
