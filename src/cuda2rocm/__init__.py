"""cuda2rocm: take a CUDA application to AMD GPUs under ROCm, end to end.

The library API mirrors the CLI; functions are imported lazily so ``import cuda2rocm`` stays cheap::

    import cuda2rocm
    result = cuda2rocm.scan("path/to/repo")
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "scan": "cuda2rocm.scan.api",
    "ScanResult": "cuda2rocm.scan.api",
    "convert": "cuda2rocm.translate.api",
    "convert_source": "cuda2rocm.translate.api",
    "migrate_build": "cuda2rocm.migrate.build",
    "migrate_deploy": "cuda2rocm.migrate.deploy.run",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'cuda2rocm' has no attribute {name!r}")
