"""Stand-in for torch.utils.cpp_extension of a ROCm build: the platform values it sets, and extensions that record
what they were given (in the JSON file $C2R_EXTENSION_RECORD, one entry per extension)."""

import json
import os
from pathlib import Path
from typing import Any

from setuptools import Extension
from setuptools.command.build_ext import build_ext

CUDA_HOME = None
ROCM_HOME = "/opt/rocm"
HIP_HOME = "/opt/rocm/hip"
IS_HIP_EXTENSION = True


def _record(kind: str, name: str, sources: Any, kwargs: dict[str, Any]) -> Extension:
    path = os.environ.get("C2R_EXTENSION_RECORD")
    if path:
        seen = json.loads(Path(path).read_text()) if os.path.exists(path) else []
        seen.append({"kind": kind, "name": name, "sources": list(sources or []),
                     **{k: v for k, v in kwargs.items() if isinstance(v, (str, int, list, tuple, dict))}})
        Path(path).write_text(json.dumps(seen))
    return Extension(name, sources=list(sources or []))


def CUDAExtension(name: str, sources: Any = None, *args: Any, **kwargs: Any) -> Extension:
    return _record("CUDAExtension", name, kwargs.pop("sources", sources), kwargs)


def CppExtension(name: str, sources: Any = None, *args: Any, **kwargs: Any) -> Extension:
    return _record("CppExtension", name, kwargs.pop("sources", sources), kwargs)


class BuildExtension(build_ext):
    @classmethod
    def with_options(cls, **options: Any) -> type["BuildExtension"]:
        return cls
