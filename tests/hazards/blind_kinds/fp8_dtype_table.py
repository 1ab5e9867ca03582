import torch

KV_CACHE_DTYPES = {
    "auto": None,
    "fp16": torch.float16,
    "fp8_e5m2": torch.float8_e5m2,
}


def kv_dtype(name: str, model_dtype: torch.dtype) -> torch.dtype:
    return KV_CACHE_DTYPES[name] or model_dtype
