#if defined(__CUDA_BF16_TYPES_EXIST__)
typedef __nv_bfloat16 bf16_t;
#endif
