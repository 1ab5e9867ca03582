// cuda2rocm-options: --use-hip-data-types
#include <hipblas/hipblas.h>
#include <hip/library_types.h>
hipDataType pick(bool half) { return half ? HIP_R_16F : HIP_R_32F; }
