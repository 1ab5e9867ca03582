#include <rccl/rccl.h>
#include <hip/hip_runtime.h>
ncclResult_t reduce(ncclComm_t comm, float* buf, size_t n, hipStream_t s) {
    return ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s);
}
