"""CUDA -> HIP identifier and header mappings, shipped as data files with sources and dates.

>>> from cuda2rocm.mapping import load, parse_version
>>> load().lookup("cudaMalloc").hip
'hipMalloc'
>>> load().lookup("__shfl_down_sync").resolve("5.2")
Resolution(name='__shfl_down', drop_args=(0,), fallback=True)
"""

from __future__ import annotations

from cuda2rocm.mapping.classify import identifier_library
from cuda2rocm.mapping.entry import SUPPORT_LEVELS, Entry, HeaderEntry, Resolution
from cuda2rocm.mapping.releases import is_known_rocm, newest_rocm, rocm_releases
from cuda2rocm.mapping.table import MappingDataError, MappingTable, load
from cuda2rocm.mapping.version import Version, parse_version


def __getattr__(name: str) -> object:
    if name == "ROCM_RELEASES":  # lazy: reading the data file waits until someone asks
        return rocm_releases()
    raise AttributeError(name)


__all__ = [
    "ROCM_RELEASES",
    "SUPPORT_LEVELS",
    "Entry",
    "HeaderEntry",
    "MappingDataError",
    "MappingTable",
    "Resolution",
    "Version",
    "identifier_library",
    "is_known_rocm",
    "load",
    "newest_rocm",
    "parse_version",
    "rocm_releases",
]
