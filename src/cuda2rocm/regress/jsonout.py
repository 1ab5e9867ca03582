"""A JSON-ready dict of comparison results (stable keys; ``schema`` bumps on incompatible change)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

from cuda2rocm.results.regress import CompareResult, CurveReport, MetricReport

SCHEMA = "cuda2rocm.compare/1"


def to_dict(result: CompareResult | None, curves: Sequence[CurveReport] = (),
            metrics: Sequence[MetricReport] = ()) -> dict[str, Any]:
    passed = (result is None or result.passed) and all(c.ok for c in curves) and all(m.ok for m in metrics)
    out: dict[str, Any] = {"schema": SCHEMA, "passed": passed}
    if result is not None:
        first = result.first_divergence
        out["tensors"] = {
            "base": result.base, "candidate": result.cand, "warnings": list(result.warnings),
            "first_divergence": first.name if first else None, "counts": result.counts(),
            "reports": [_clean(dataclasses.asdict(r)) for r in result.reports],
        }
    out["curves"] = [_clean({k: v for k, v in dataclasses.asdict(c).items() if k not in ("base", "cand")})
                     for c in curves]
    out["metrics"] = [_clean(dataclasses.asdict(m)) for m in metrics]
    return out


def _clean(obj: Any) -> Any:
    """JSON has no NaN/Inf: write them as strings."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj
