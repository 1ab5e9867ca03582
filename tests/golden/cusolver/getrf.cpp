#include <cusolverDn.h>
int lu(cusolverDnHandle_t h, int n, float* A, int* ipiv, int* info, float* work) {
    int lwork = 0;
    cusolverDnSgetrf_bufferSize(h, n, n, A, n, &lwork);
    return cusolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
}
