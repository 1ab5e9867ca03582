// cuda2rocm-options: --target-rocm 5.2
#include <hip/hip_runtime.h>
__constant__ float c_table[16];
__device__ int d_count, d_flags[4] = {0, 1, 2, 3};
__managed__ double m_sum;
__device__ float scale(float v) { return v * c_table[0]; }
void copies(float* h, int* n, hipStream_t s) {
    hipMemcpyToSymbolAsync(HIP_SYMBOL(c_table), h, sizeof(c_table), 0, hipMemcpyHostToDevice, s);
    hipMemcpyToSymbolAsync(HIP_SYMBOL(d_count), n, sizeof(int), 0, hipMemcpyHostToDevice, 0);
    hipMemcpyFromSymbolAsync(n, HIP_SYMBOL(d_flags), sizeof(d_flags), 0, hipMemcpyDeviceToHost, s);
    hipMemcpyFromSymbol(h, HIP_SYMBOL(c_table), sizeof(float));
    void* p = nullptr;
    hipGetSymbolAddress(&p, HIP_SYMBOL(m_sum));
}
void graph(float* h, int* n, hipGraph_t g, hipGraphExec_t e, hipGraphNode_t* node) {
    hipGraphAddMemcpyNodeToSymbol(node, g, nullptr, 0, &d_count, n, sizeof(int), 0, hipMemcpyHostToDevice);
    hipGraphAddMemcpyNodeToSymbol(node, g, nullptr, 0, &c_table, h, sizeof(c_table), 0, hipMemcpyHostToDevice);
    hipGraphAddMemcpyNodeFromSymbol(node, g, nullptr, 0, n, &d_flags, sizeof(int), 0, hipMemcpyDeviceToHost);
    hipGraphMemcpyNodeSetParamsToSymbol(*node, &d_count, n, sizeof(int), 0, hipMemcpyHostToDevice);
    hipGraphMemcpyNodeSetParamsFromSymbol(*node, n, &d_count, sizeof(int), 0, hipMemcpyDeviceToHost);
    hipGraphExecMemcpyNodeSetParamsToSymbol(e, *node, &m_sum, h, sizeof(double), 0, hipMemcpyHostToDevice);
    hipGraphExecMemcpyNodeSetParamsFromSymbol(e, *node, h, &c_table, sizeof(float), 0, hipMemcpyDeviceToHost);
}
