"""Which names are CUDA's, and which CUDA library a name belongs to, including names no table lists.

The one place that recognises CUDA identifiers and headers: scan counts API references with it and convert
reports unknown CUDA-looking names with it. The naming conventions are data (``data/prefixes.csv``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from cuda2rocm.lazyre import lazy
from cuda2rocm.mapping.table import load, read_rows

#: what must follow a prefix (``data/prefixes.csv``, columns ``follows`` and ``looks``)
_CONDITIONS: dict[str, Callable[[str], bool]] = {
    "any": lambda rest: True,
    "word": lambda rest: bool(rest) and (rest[0].isalnum() or rest[0] == "_"),
    "upper": lambda rest: bool(rest) and "A" <= rest[0] <= "Z",
    "upper_": lambda rest: bool(rest) and ("A" <= rest[0] <= "Z" or rest[0] == "_"),
    "lower": lambda rest: bool(rest) and "a" <= rest[0] <= "z",
}
_NEVER: Callable[[str], bool] = lambda rest: False  # noqa: E731  (an empty ``looks``: library only)
#: header names that are CUDA's by their first part (``cublas_v2.h``, ``thrust/sort.h``), beside the table's
_HEADER = lazy(r"(?:cuda|cu[a-z]+|nccl|nvtx|nvml|nvrtc|NvInfer|mma|nvToolsExt|cooperative_groups)"
                     r"[\w./]*\.h(?:pp)?|(?:thrust|cub|cutlass|cute|cuda|nvtx3)/[\w./]+")

Row = tuple[str, str, Callable[[str], bool], Callable[[str], bool]]


@functools.lru_cache(maxsize=1)
def _prefixes() -> tuple[tuple[Row, ...], tuple[str, ...], tuple[str, ...]]:
    """(prefix, library, follows, looks) rows longest first, every prefix (a fast reject), and the prefixes
    that make a name CUDA-looking."""
    rows: list[Row] = []
    for lineno, row in read_rows("prefixes"):
        try:
            follows = _CONDITIONS[row["follows"]]
            looks = _CONDITIONS[row["looks"]] if row["looks"] else _NEVER
        except KeyError as exc:
            raise ValueError(f"prefixes.csv:{lineno}: unknown condition {exc.args[0]!r} "
                             f"(known: {', '.join(_CONDITIONS)})") from None
        rows.append((row["prefix"], row["library"], follows, looks))
    rows.sort(key=lambda r: -len(r[0]))
    looking = tuple(r[0] for r in rows if r[3] is not _NEVER)
    return tuple(rows), tuple(r[0] for r in rows), looking


@functools.lru_cache(maxsize=65536)
def identifier_library(name: str) -> str:
    """``"runtime"``, ``"cublas"``, ... for a CUDA identifier; ``""`` when it is not a CUDA name.

    Table rows decide first (so ``__shfl_down_sync`` is ``device``); otherwise the longest known naming
    prefix (``cublasFooBar`` -> ``cublas``, ``cudaNewThing`` -> ``runtime``). Memoised: scans repeat names."""
    library = load().library_of(name)
    if library is not None:
        return library
    return prefix_library(name)


@functools.lru_cache(maxsize=65536)
def prefix_library(name: str) -> str:
    """The library a name's naming prefix says (identifier, ``ns::name`` or header), ignoring the tables;
    ``""`` when no prefix fits (``cu`` and ``cuda`` need a capital after them: ``cuMemAlloc``, not ``cube``)."""
    rows, every, _ = _prefixes()
    if not name.startswith(every):
        return ""
    for prefix, library, follows, _looks in rows:
        if name.startswith(prefix) and follows(name[len(prefix):]):
            return library
    return ""


@functools.lru_cache(maxsize=65536)
def looks_cuda(name: str) -> bool:
    """Whether an identifier follows a CUDA naming convention (``cudaMalloc``, ``CUdevice``, ``CUBLAS_OP_N``,
    ``ncclAllReduce``), whether or not a table lists it."""
    rows, _, looking = _prefixes()
    if not name.startswith(looking):
        return False
    return any(name.startswith(prefix) and looks(name[len(prefix):]) for prefix, _, _, looks in rows)


def is_cuda_header(name: str) -> bool:
    """Whether an include names a CUDA header (``cuda_runtime.h``, ``cublas_v2.h``, ``thrust/sort.h``)."""
    return _HEADER().fullmatch(name) is not None


@functools.lru_cache(maxsize=1)
def namespaces() -> frozenset[str]:
    """The CUDA libraries' C++ namespaces (``thrust``, ``cub``, ``cooperative_groups``, ...): the ``ns::`` prefixes."""
    return frozenset(r[0][:-2] for r in _prefixes()[0] if r[0].endswith("::"))
