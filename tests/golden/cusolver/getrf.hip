#include <hipsolver/hipsolver.h>
int lu(hipsolverHandle_t h, int n, float* A, int* ipiv, int* info, float* work) {
    int lwork = 0;
    hipsolverDnSgetrf_bufferSize(h, n, n, A, n, &lwork);
    return hipsolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
}
