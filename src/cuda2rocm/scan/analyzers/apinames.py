"""Which identifiers and headers are CUDA API references, and what the mapping table says about them.

The mapping table (:mod:`cuda2rocm.mapping`) is the authority for HIP names and support; when it does not
know a name, the library is inferred from the name's prefix and support is ``unknown``.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

NAMESPACES = frozenset({"thrust", "cub", "cutlass", "nvinfer1", "nvcuda", "cooperative_groups", "cute"})
_IDENT = re.compile(
    r"cuda[A-Z_]\w*|cu[A-Z]\w*|CU[a-z]\w*|CU_[A-Z]\w*|(?:cublasLt|cublas|cudnn|cufft|cusparse|cusolver|curand"
    r"|cutensor|nvrtc|nvjpeg|cupti)\w*|(?:nccl|nvtx|nvml)[A-Z]\w*|(?:NCCL|CUBLAS|CUDNN|CUFFT|CURAND|CUSPARSE"
    r"|CUSOLVER|NVTX|NVML|CUTENSOR)_\w+"
)
_HEADER = re.compile(r"(?:cuda|cu[a-z]+|nccl|nvtx|nvml|nvrtc|NvInfer|mma|nvToolsExt|cooperative_groups)"
                     r"[\w./]*\.h(?:pp)?|(?:thrust|cub|cutlass|cute|cuda|nvtx3)/[\w./]+")
# order matters: the first matching prefix names the library
_PREFIXES = (
    ("cublasLt", "cublaslt"), ("CUBLASLT", "cublaslt"), ("cublas", "cublas"), ("CUBLAS", "cublas"),
    ("cudnn", "cudnn"), ("CUDNN", "cudnn"), ("cufft", "cufft"), ("CUFFT", "cufft"), ("cusparse", "cusparse"),
    ("CUSPARSE", "cusparse"), ("cusolver", "cusolver"), ("CUSOLVER", "cusolver"), ("curand", "curand"),
    ("CURAND", "curand"), ("cutensor", "cutensor"), ("CUTENSOR", "cutensor"), ("nccl", "nccl"), ("NCCL", "nccl"),
    ("nvtx", "nvtx"), ("NVTX", "nvtx"), ("nvToolsExt", "nvtx"), ("nvml", "nvml"), ("NVML", "nvml"),
    ("nvrtc", "nvrtc"), ("nvjpeg", "nvjpeg"), ("cupti", "cupti"), ("thrust", "thrust"), ("cub", "cub"),
    ("cutlass", "cutlass"), ("cute", "cutlass"), ("nvinfer1", "tensorrt"), ("NvInfer", "tensorrt"),
    ("nvcuda", "runtime"), ("mma", "runtime"), ("cooperative_groups", "runtime"), ("cuda", "runtime"),
    ("cu", "driver"), ("CU", "driver"),
)


class ApiEntry(NamedTuple):
    library: str
    hip_name: str
    support: str  # supported | unsupported | experimental | deprecated | removed | unknown


def is_cuda_identifier(name: str) -> bool:
    return _IDENT.fullmatch(name) is not None


def is_cuda_header(name: str) -> bool:
    return _HEADER.fullmatch(name) is not None


def library_of(name: str) -> str:
    for prefix, library in _PREFIXES:
        if name.startswith(prefix):
            return library
    return "unknown"


@functools.lru_cache(maxsize=8192)
def lookup(name: str) -> ApiEntry:
    """HIP counterpart and support of one CUDA name (identifier, ``ns::name`` or header)."""
    entry = _mapping_entry(name)
    if entry is None:
        return _header_entry(name) or ApiEntry(library_of(name), "", "unknown")
    library = str(_field(entry, "library", "lib") or library_of(name)).lower()
    hip = str(_field(entry, "hip_name", "hip") or "")
    support = str(_field(entry, "support") or "unknown")
    return ApiEntry(library, hip, support)


def _field(entry: Any, *names: str) -> Any:
    for n in names:
        value = getattr(entry, n, None)
        if value:
            return value
    return None


@functools.lru_cache(maxsize=1)
def _table() -> Any:
    try:
        from cuda2rocm import mapping

        return mapping.load()
    except (ImportError, AttributeError):
        return None


def _header_entry(name: str) -> ApiEntry | None:
    """``cublas_v2.h`` -> hipblas/hipblas.h from the mapping's header table."""
    table = _table()
    if table is None or not is_cuda_header(name):
        return None
    header = table.header(name)
    if header is None:
        return None
    library = str(header.library or library_of(name)).lower()
    return ApiEntry(library, header.hip or "", "supported" if header.hip else str(header.support or "unsupported"))


def _mapping_entry(name: str) -> Any:
    table = _table()
    if table is None:
        return None
    try:
        return table.lookup(name)
    except (KeyError, LookupError):
        return None


def first_use_finding(name: str) -> tuple[str, str] | None:
    """(rule, message) for the first use of a CUDA name in a file: S109 without a HIP counterpart, S112 for a
    library API (runtime and driver calls are counted, not reported one by one)."""
    entry = lookup(name)
    if entry.support in ("unsupported", "removed"):
        return "C2R-S109", f"{name} ({entry.library}) has no supported HIP counterpart ({entry.support})"
    if entry.library not in ("runtime", "driver", "math", "unknown", ""):
        hip = f" -> {entry.hip_name}" if entry.hip_name else ""
        return "C2R-S112", f"{entry.library} {name}{hip}"
    return None
