// Pattern: CUDA graphs by stream capture: cudaStreamBeginCapture (global mode), kernels + memset inside,
// cudaStreamEndCapture, cudaGraphInstantiate (5-argument form), cudaGraphLaunch in a loop, cleanup.
#include <cuda_runtime.h>

__global__ void step(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * 0.5f + 1.f;
}

int main() {
    const int n = 1 << 16;
    float* x;
    cudaMalloc(&x, n * sizeof(float));
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemsetAsync(x, 0, n * sizeof(float), s);
    for (int k = 0; k < 10; ++k) step<<<n / 256, 256, 0, s>>>(x, n);
    cudaStreamEndCapture(s, &graph);
    cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
    cudaStreamCaptureStatus status;
    cudaStreamIsCapturing(s, &status);
    for (int it = 0; it < 100; ++it) cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
    cudaFree(x);
    return 0;
}
