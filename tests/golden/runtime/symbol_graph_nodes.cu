// cuda2rocm-options: --target-rocm 5.2
#include <cuda_runtime.h>
__constant__ float c_table[16];
__device__ int d_count, d_flags[4] = {0, 1, 2, 3};
__managed__ double m_sum;
__device__ float scale(float v) { return v * c_table[0]; }
void copies(float* h, int* n, cudaStream_t s) {
    cudaMemcpyToSymbolAsync(c_table, h, sizeof(c_table), 0, cudaMemcpyHostToDevice, s);
    cudaMemcpyToSymbolAsync(d_count, n, sizeof(int));
    cudaMemcpyFromSymbolAsync(n, d_flags, sizeof(d_flags), 0, cudaMemcpyDeviceToHost, s);
    cudaMemcpyFromSymbol(h, "c_table", sizeof(float));
    void* p = nullptr;
    cudaGetSymbolAddress(&p, m_sum);
}
void graph(float* h, int* n, cudaGraph_t g, cudaGraphExec_t e, cudaGraphNode_t* node) {
    cudaGraphAddMemcpyNodeToSymbol(node, g, nullptr, 0, d_count, n, sizeof(int), 0, cudaMemcpyHostToDevice);
    cudaGraphAddMemcpyNodeToSymbol(node, g, nullptr, 0, c_table, h, sizeof(c_table), 0, cudaMemcpyHostToDevice);
    cudaGraphAddMemcpyNodeFromSymbol(node, g, nullptr, 0, n, d_flags, sizeof(int), 0, cudaMemcpyDeviceToHost);
    cudaGraphMemcpyNodeSetParamsToSymbol(*node, d_count, n, sizeof(int), 0, cudaMemcpyHostToDevice);
    cudaGraphMemcpyNodeSetParamsFromSymbol(*node, n, d_count, sizeof(int), 0, cudaMemcpyDeviceToHost);
    cudaGraphExecMemcpyNodeSetParamsToSymbol(e, *node, m_sum, h, sizeof(double), 0, cudaMemcpyHostToDevice);
    cudaGraphExecMemcpyNodeSetParamsFromSymbol(e, *node, h, "c_table", sizeof(float), 0, cudaMemcpyDeviceToHost);
}
