#include <cudnn.h>
int act(cudnnHandle_t* h, cudnnTensorDescriptor_t* x) {
    cudnnCreate(h);
    cudnnCreateTensorDescriptor(x);
    cudnnSetTensor4dDescriptor(*x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 1, 1);  // no MIOpen twin: kept
    return 0;
}
