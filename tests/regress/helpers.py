from __future__ import annotations

import numpy as np
import torch

TORCH = {
    "F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
    "F8_E4M3": torch.float8_e4m3fn, "F8_E5M2": torch.float8_e5m2, "I8": torch.int8, "I32": torch.int32,
}


def storage(values, dtype: str) -> np.ndarray:
    """Round float64 values to ``dtype`` with torch and return our storage array for them."""
    from cuda2rocm.regress.torchio import to_storage

    t = torch.tensor(np.asarray(values, dtype=np.float64)).to(TORCH[dtype])
    return to_storage(t)[2]


def decoded(arr: np.ndarray, dtype: str) -> np.ndarray:
    from cuda2rocm.regress.dtypes import values

    return np.asarray(values(arr, dtype), dtype=np.float64)


def neighbours(b: float, atol: float, rtol: float, dtype: str) -> tuple[float, float]:
    """Largest representable x with |x - b| <= atol + rtol*|b| (evaluated in the arithmetic the comparison
    uses: float64 for F64 and integers, float32 otherwise) and the next representable value above it."""
    if dtype in ("I8", "I32"):
        limit = b + atol + rtol * abs(b)
        return float(np.floor(limit)), float(np.floor(limit) + 1)
    ct = np.float64 if dtype == "F64" else np.float32
    thr = ct(abs(b)) * ct(rtol) + ct(atol)
    start = storage([b + float(thr)], dtype)
    itype = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}[start.dtype.itemsize]
    base_bits = int(start.view(itype)[0])

    def value(k: int) -> float:
        return float(decoded(np.array([base_bits + k], dtype=itype).view(start.dtype), dtype)[0])

    def inside(k: int) -> bool:
        return bool(abs(ct(value(k)) - ct(b)) <= thr)

    k = 0
    while not inside(k):
        k -= 1
    while inside(k + 1):
        k += 1
    return value(k), value(k + 1)
