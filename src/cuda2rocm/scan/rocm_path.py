"""Signs that a project already has a ROCm/HIP path (C2R-S113): in build files, Python, C++ and scripts.

Each analyzer passes the code it already isolated (tokens, logical lines, commands), so comments and strings
are never taken for a ROCm path.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from cuda2rocm.scan import rules
from cuda2rocm.scan.filefacts import FileFacts, Hit, Record, Tag

#: words of code that only a HIP/ROCm build uses
WORDS = frozenset({"__HIP_PLATFORM_AMD__", "__HIP_PLATFORM_HCC__", "__HIPCC__", "USE_ROCM", "HIP_PLATFORM",
                   "CMAKE_HIP_ARCHITECTURES", "HIP_ARCHITECTURES", "PYTORCH_ROCM_ARCH", "hipcc", "ROCM_PATH",
                   "ROCM_HOME"})
_HIP_PACKAGES = frozenset({"hip", "HIP", "rocblas", "hipblas", "rccl"})
_CMAKE_WORD = re.compile(r"\b(?:hip|roc)::\w+|\bCMAKE_HIP_ARCHITECTURES\b")
_COMMAND = re.compile(r"(?<![\w-])(hipcc|--offload-arch=gfx\w+|amdclang\+\+|--device[= ]/dev/kfd|amd-smi|rocm-smi)"
                      r"(?![\w-])|(?<![\w/.-])(rocm/[a-z][\w.-]*(?::[\w.-]+)?)|(download\.pytorch\.org/whl/(?:nightly/)?rocm"
                      r"[\d.]+)")


def sign(line: int, col: int, what: str) -> Iterator[Record]:
    """A sign of a ROCm path: the file's tag and its finding (:func:`first_sign` keeps one per file)."""
    yield Tag("rocm-path")
    yield Hit(rules.S113, line, col, f"existing ROCm/HIP path: {what}")


def first_sign(records: Iterable[Record]) -> Iterator[Record]:
    """``records`` with only the first ROCm-path finding (one per file)."""
    seen = False
    for r in records:
        if isinstance(r, Hit) and r.rule is rules.S113:
            if seen:
                continue
            seen = True
        yield r


def note(report: FileFacts, line: int, col: int, what: str) -> None:
    """Record the file's first sign of a ROCm path (one finding per file), for analyzers that fill a report."""
    if "rocm-path" not in report.tags:
        report.collect(sign(line, col, what))


def cmake(name: str, args: Sequence[str], line: int, col: int) -> Iterator[Record]:
    """A CMake command (lower-case ``name``) and its argument texts."""
    first = args[0] if args else ""
    if name == "enable_language" and first == "HIP":
        yield from sign(line, col, "enable_language(HIP")
    elif name == "find_package" and first in _HIP_PACKAGES:
        yield from sign(line, col, f"find_package({first}")
    elif name == "project" and "HIP" in args:
        yield from sign(line, col, "project(... HIP")
    elif (m := next((m for a in args if (m := _CMAKE_WORD.search(a))), None)) is not None:
        yield from sign(line, col, m.group(0))


def command(code: str, line: int) -> Iterator[Record]:
    m = _COMMAND.search(code)
    if m:
        yield from sign(line, m.start() + 1, next(g for g in m.groups() if g))
