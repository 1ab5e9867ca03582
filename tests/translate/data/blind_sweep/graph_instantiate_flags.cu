// Pattern: CUDA 12 style graph instantiate with flags (3-argument cudaGraphInstantiate).
#include <cuda_runtime.h>
__global__ void k(float* x) { x[threadIdx.x] += 1.f; }
int main() {
    cudaStream_t s; cudaStreamCreate(&s);
    float* x; cudaMalloc(&x, 1024);
    cudaGraph_t g; cudaGraphExec_t e, e2;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
    k<<<1, 256, 0, s>>>(x);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&e, g, 0);
    cudaGraphInstantiateWithFlags(&e2, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
    cudaGraphLaunch(e, s);
    cudaStreamSynchronize(s);
    return 0;
}
