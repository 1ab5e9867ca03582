"""The results floor: every value a command returns and an envelope carries, as plain frozen dataclasses.

Each module holds one command family's payload types and the small value types they embed; none of them imports
anything but :mod:`cuda2rocm.model`, the standard library and each other (``tests/test_import_graph.py``), so a
record decodes without torch, numpy or any engine. What a type needs from an engine (making it from a run,
judging it against rules) stays in that engine as a function.

- :mod:`~cuda2rocm.results.scan`: the ``ScanResult`` contract (re-exported here: ``from cuda2rocm.results import
  ScanResult``), versioned by ``SCHEMA_VERSION``;
- :mod:`~cuda2rocm.results.stats`: a convert's per-file statistics (on every convert's path, so nothing else);
- :mod:`~cuda2rocm.results.translate`: the ``convert`` and ``verify`` records;
- :mod:`~cuda2rocm.results.migrate`: the ``migrate build|deploy`` record;
- :mod:`~cuda2rocm.results.regress`: ``compare``, ``capture`` (the manifest) and ``smoke``;
- :mod:`~cuda2rocm.results.perf`: ``bench compare`` and ``comm``;
- :mod:`~cuda2rocm.results.compat`: ``compat``.

The scan names load on first use (``__getattr__``): importing a submodule runs this file, and a single-file
convert, which needs only the statistics, should not define the scan contract's dataclasses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # at run time these come from results.scan on first use (``__getattr__`` below)
    from cuda2rocm.results.scan import (
        SCHEMA_VERSION,
        ApiUse,
        BinaryArtifact,
        Deployment,
        FileInfo,
        LayerAssessment,
        PluginUse,
        RiskAssessment,
        ScanResult,
    )

__all__ = [
    "SCHEMA_VERSION", "ApiUse", "BinaryArtifact", "Deployment", "FileInfo", "LayerAssessment", "PluginUse",
    "RiskAssessment", "ScanResult",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        value = getattr(importlib.import_module("cuda2rocm.results.scan"), name)
        globals()[name] = value  # looked up once
        return value
    raise AttributeError(f"module 'cuda2rocm.results' has no attribute {name!r}")
