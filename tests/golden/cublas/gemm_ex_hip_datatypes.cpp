// cuda2rocm-options: --use-hip-data-types
#include <cublas_v2.h>
#include <library_types.h>
cudaDataType pick(bool half) { return half ? CUDA_R_16F : CUDA_R_32F; }
