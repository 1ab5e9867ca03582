#include <miopen/miopen.h>
int act(miopenHandle_t* h, miopenTensorDescriptor_t* x) {
    miopenCreate(h);
    miopenCreateTensorDescriptor(x);
    cudnnSetTensor4dDescriptor(*x, miopenTensorNCHW, miopenFloat, 1, 1, 1, 1);  // no MIOpen twin: kept
    return 0;
}
