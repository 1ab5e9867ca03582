#include <nccl.h>
#include <cuda_runtime.h>
ncclResult_t reduce(ncclComm_t comm, float* buf, size_t n, cudaStream_t s) {
    return ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
}
