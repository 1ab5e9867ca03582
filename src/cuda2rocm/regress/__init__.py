"""Numerical regression: capture layer outputs, compare them under dtype-aware tolerances, smoke-test.

Library entry points (imported lazily; torch is needed only for capture and smoke)::

    from cuda2rocm.regress import capture_to, CaptureOptions
    from cuda2rocm.regress.compare import compare
    from cuda2rocm.regress.smoke import smoke
    capture_to("base", model, inputs, CaptureOptions(device="cuda", dtype="bfloat16"))
    result = compare("base", "cand")          # CompareResult: .passed, .first_divergence, .reports

``compare``, ``capture`` and ``smoke`` are both submodules and functions, so import the functions from their
modules: once a submodule is imported, Python binds the package attribute of that name to the module.
"""

from __future__ import annotations

from typing import Any

_LAZY = {
    "capture_to": "cuda2rocm.regress.capture",
    "CaptureOptions": "cuda2rocm.regress.capture",
    "CompareResult": "cuda2rocm.results.regress",
    "load_policy": "cuda2rocm.regress.policy",
    "compare_curves": "cuda2rocm.regress.curves",
    "read_curves": "cuda2rocm.regress.curves",
    "compare_metrics": "cuda2rocm.regress.metrics",
    "RegressInputError": "cuda2rocm.regress.errors",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'cuda2rocm.regress' has no attribute {name!r}")
