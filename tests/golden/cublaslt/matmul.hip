#include <hipblaslt/hipblaslt.h>
int lt(hipblasLtHandle_t* h, hipblasLtMatmulDesc_t* desc) {
    if (hipblasLtCreate(h) != HIPBLAS_STATUS_SUCCESS) return 1;
    return hipblasLtMatmulDescCreate(desc, HIPBLAS_COMPUTE_32F, HIP_R_32F) == HIPBLAS_STATUS_SUCCESS ? 0 : 2;
}
