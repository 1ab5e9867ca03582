"""Bandwidth arithmetic with the same definitions as nccl-tests / rccl-tests (their doc/PERFORMANCE.md).

``algbw = size / time``; ``busbw = algbw * factor(op, n)``. ``size`` is nccl-tests' size column: the
largest per-rank buffer of the operation (all-gather: the gathered output; reduce-scatter: the input).
Bandwidths are in GB/s with GB = 1e9 bytes, as nccl-tests prints them.
"""

from __future__ import annotations

import re

#: op -> bus-bandwidth factor as a function of the rank count n
_FACTORS = {
    "all_reduce": lambda n: 2.0 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "all_to_all": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
    "reduce": lambda n: 1.0,
    "sendrecv": lambda n: 1.0,
}

OPS = tuple(_FACTORS)

_UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*$", re.IGNORECASE)


def bus_factor(op: str, n: int) -> float:
    """nccl-tests' bus-bandwidth factor for ``op`` on ``n`` ranks."""
    if n < 1:
        raise ValueError(f"world size must be >= 1, got {n}")
    try:
        return float(_FACTORS[op](n))
    except KeyError:
        raise ValueError(f"unknown collective {op!r}; known: {', '.join(OPS)}") from None


def algbw_gbps(size_bytes: int, seconds: float) -> float:
    """Algorithm bandwidth in GB/s (1e9 bytes per second)."""
    return size_bytes / seconds / 1e9 if seconds > 0 else 0.0


def busbw_gbps(op: str, size_bytes: int, seconds: float, n: int) -> float:
    return algbw_gbps(size_bytes, seconds) * bus_factor(op, n)


def parse_size(text: str) -> int:
    """``'8'``, ``'64K'``, ``'1M'``, ``'1MB'``, ``'8GiB'`` -> bytes (binary units, like nccl-tests' -b/-e)."""
    m = _SIZE_RE.match(text)
    if not m:
        raise ValueError(f"not a size: {text!r} (examples: 8, 64K, 1M, 8G)")
    return int(float(m.group(1)) * _UNITS[m.group(2).upper()])


def size_sweep(begin: int, end: int, factor: int = 2) -> list[int]:
    """``begin, begin*factor, ...`` up to and including ``end`` (nccl-tests' -b/-e/-f)."""
    if begin < 1 or end < begin or factor < 2:
        raise ValueError(f"bad sweep: begin={begin} end={end} factor={factor}")
    sizes = [begin]
    while sizes[-1] * factor <= end:
        sizes.append(sizes[-1] * factor)
    return sizes


def format_size(n: int) -> str:
    for unit, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale}{unit}"
    return f"{n}B" if n < 1024 else f"{n / 1024:.1f}K"
