#include <cuda_fp16.h>
#if defined(__CUDA_BF16_TYPES_EXIST__)
#include <cuda_bf16.h>
typedef __nv_bfloat16 bf16_t;
#endif
