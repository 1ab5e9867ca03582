"""Shared bits of the device-rule modules: rule metadata defaults and tiny helpers."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cuda2rocm.hazards.context import Source
from cuda2rocm.lazyre import lazy
from cuda2rocm.model import Layer
from cuda2rocm.source.structure import Function

FAMILY = "device"
LAYER = Layer.LOW_LEVEL
HIP_GUIDE = "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_cpp_language_extensions.html"
HIP_PORTING = "https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_porting_guide.html"
GPU_SPECS = "https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html"
PTX_ISA = "https://docs.nvidia.com/cuda/parallel-thread-execution/"
CUDA_GUIDE = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/"

LANEISH = lazy(r"lane|warp|wid\b|wave", re.IGNORECASE)


def device_bodies(src: Source) -> Iterator[Function]:
    """Device functions (``__global__``/``__device__``) with bodies, outermost first."""
    yield from src.device_functions()


def in_body(fn: Function, i: int) -> bool:
    return fn.body_open < i < fn.body_close


def first_per_scope(src: Source, indexes: Iterator[int]) -> Iterator[int]:
    """The first of ``indexes`` in each function body (or at file scope): one report per place, not per use."""
    seen: set[int] = set()
    for i in indexes:
        fn = src.function_at(i)
        key = fn.body_open if fn is not None else -1
        if key not in seen:
            seen.add(key)
            yield i


def first_per_line(src: Source, indexes: Iterator[int]) -> Iterator[int]:
    """The first of ``indexes`` on each source line: every use site reported once."""
    seen: set[int] = set()
    for i in indexes:
        line = src.loc(i)[0]
        if line not in seen:
            seen.add(line)
            yield i
