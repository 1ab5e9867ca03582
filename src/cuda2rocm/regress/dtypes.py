"""Storage dtypes by their safetensors names, and how to turn stored bits into comparable numbers.

Tensors travel as numpy arrays of their *storage* type: BF16 as uint16 bits, FP8 as uint8 bits,
INT4/UINT4 unpacked to one int8 per value. :func:`values` decodes a chunk to float32/float64/int64 for
arithmetic; :func:`ordered_bits` gives the signed integer view used for exact ULP distances.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]


@dataclass(frozen=True)
class DType:
    name: str  # safetensors spelling: F32, BF16, F8_E4M3, I8, ...
    storage: str  # numpy storage dtype
    kind: str  # "float" | "int" | "bool"
    bits: int


_TABLE = (
    DType("F64", "float64", "float", 64),
    DType("F32", "float32", "float", 32),
    DType("F16", "float16", "float", 16),
    DType("BF16", "uint16", "float", 16),
    DType("F8_E4M3", "uint8", "float", 8),
    DType("F8_E5M2", "uint8", "float", 8),
    DType("I64", "int64", "int", 64),
    DType("I32", "int32", "int", 32),
    DType("I16", "int16", "int", 16),
    DType("I8", "int8", "int", 8),
    DType("U64", "uint64", "int", 64),
    DType("U32", "uint32", "int", 32),
    DType("U16", "uint16", "int", 16),
    DType("U8", "uint8", "int", 8),
    DType("I4", "int8", "int", 4),
    DType("U4", "int8", "int", 4),
    DType("BOOL", "bool", "bool", 8),
)
DTYPES: dict[str, DType] = {d.name: d for d in _TABLE}

_ALIASES = {
    "float64": "F64", "double": "F64", "f8": "F64", "float32": "F32", "float": "F32", "f4": "F32",
    "float16": "F16", "half": "F16", "f2": "F16", "bfloat16": "BF16", "bf16": "BF16",
    "float8_e4m3fn": "F8_E4M3", "float8_e4m3": "F8_E4M3", "fp8_e4m3": "F8_E4M3", "e4m3": "F8_E4M3",
    "float8_e5m2": "F8_E5M2", "fp8_e5m2": "F8_E5M2", "e5m2": "F8_E5M2",
    "int64": "I64", "long": "I64", "i8": "I64", "int32": "I32", "int": "I32", "i4": "I32",
    "int16": "I16", "short": "I16", "i2": "I16", "int8": "I8", "i1": "I8",
    "uint64": "U64", "u8": "U64", "uint32": "U32", "u4": "U32", "uint16": "U16", "u2": "U16",
    "uint8": "U8", "u1": "U8", "int4": "I4", "uint4": "U4", "bool": "BOOL", "b1": "BOOL",
}


def canonical(name: str) -> str:
    """Accept safetensors, numpy and torch spellings (``F32``, ``float32``, ``torch.bfloat16``, ``<f4``)."""
    text = name.strip()
    if text.upper() in DTYPES:
        return text.upper()
    key = text.lower().removeprefix("torch.").lstrip("<>=|")
    if key in _ALIASES:
        return _ALIASES[key]
    raise ValueError(f"unknown dtype {name!r}")


def from_numpy(dtype: np.dtype[np.generic]) -> str:
    return canonical(dtype.name)


@lru_cache(maxsize=2)
def _fp8_table(name: str) -> npt.NDArray[np.float32]:
    exp_bits, man_bits = (4, 3) if name == "F8_E4M3" else (5, 2)
    bias = (1 << (exp_bits - 1)) - 1
    codes = np.arange(256)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    exp = (codes >> man_bits) & ((1 << exp_bits) - 1)
    man = codes & ((1 << man_bits) - 1)
    normal = (1 + man / (1 << man_bits)) * np.exp2(exp - bias)
    subnormal = (man / (1 << man_bits)) * np.exp2(1 - bias)
    mag = np.where(exp == 0, subnormal, normal)
    if name == "F8_E4M3":  # OCP E4M3FN: no infinities, S.1111.111 is NaN
        mag = np.where((exp == 15) & (man == 7), np.nan, mag)
    else:  # E5M2 follows IEEE: exponent all ones is Inf/NaN
        mag = np.where(exp == 31, np.where(man == 0, np.inf, np.nan), mag)
    return (sign * mag).astype(np.float32)


def values(chunk: Array, dtype: str) -> Array:
    """Decode a chunk of storage to numbers: float32 (float64 for F64), int64 for integers."""
    if dtype == "BF16":
        return (chunk.astype(np.uint32) << 16).view(np.float32)
    if dtype in ("F8_E4M3", "F8_E5M2"):
        return _fp8_table(dtype)[chunk]
    if dtype == "F16":
        return chunk.astype(np.float32)
    if DTYPES[dtype].kind != "float":
        return chunk.astype(np.int64)
    return chunk


_SIGNED = {64: np.int64, 32: np.int32, 16: np.int16, 8: np.int8}


def signed_bits(chunk: Array, dtype: str) -> Array:
    """The same bytes as signed integers of the dtype's width (for ULP distances)."""
    return chunk.view(_SIGNED[DTYPES[dtype].bits])
